module github.com/gendisc/gendisc

go 1.26

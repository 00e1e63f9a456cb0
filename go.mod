module github.com/gendisc/gendisc

go 1.26

require (
	golang.org/x/tools v0.30.0 // indirect
	gonum.org/v1/gonum v0.17.0 // indirect
)

package naivebayes_test

import (
	"fmt"
	"log"
	"strings"

	"github.com/gendisc/gendisc/dataio"
	"github.com/gendisc/gendisc/naivebayes"
)

// Two shards of a data set, read on different machines: their classes and
// levels come in orders of their own. Each machine fits an accumulator
// and sends its encoding; the merged accumulator finishes into the model
// of all the rows.
func ExampleConfig_NewAccumulator() {
	shards := []string{
		"colour,note,class\nred,cheap pills now,spam\nblue,lunch at noon,ham\nred,cheap cheap,spam\n",
		"colour,note,class\ngreen,see you at lunch,ham\nblue,pills for less,spam\ngreen,noon then,ham\n",
	}
	cfg := naivebayes.Config{} // mixed: colour categorical, note multinomial words
	var encoded [][]byte
	for i, csv := range shards {
		d, err := dataio.Read(strings.NewReader(csv), fmt.Sprintf("shard%d.csv", i), dataio.Options{Text: []string{"note"}})
		if err != nil {
			log.Fatal(err)
		}
		a, err := cfg.NewAccumulator()
		if err != nil {
			log.Fatal(err)
		}
		if err := a.Add(d); err != nil {
			log.Fatal(err)
		}
		b, err := a.MarshalBinary()
		if err != nil {
			log.Fatal(err)
		}
		encoded = append(encoded, b)
		fmt.Printf("shard %d: classes %q, colours %q\n", i, d.Schema.Classes(), d.Schema.Features[0].Levels)
	}
	merged, _ := cfg.NewAccumulator()
	for _, b := range encoded {
		var a naivebayes.Accumulator
		if err := a.UnmarshalBinary(b); err != nil {
			log.Fatal(err)
		}
		if err := merged.Merge(&a); err != nil {
			log.Fatal(err)
		}
	}
	m, err := merged.Finish()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("merged: %s, classes %q, colours %q, class weights %v\n",
		m.Kind(), m.Classes(), m.Schema().Features[0].Levels, m.ClassWeights())
	// Output:
	// shard 0: classes ["ham" "spam"], colours ["blue" "red"]
	// shard 1: classes ["ham" "spam"], colours ["blue" "green"]
	// merged: nb, classes ["ham" "spam"], colours ["blue" "red" "green"], class weights [3 3]
}

package text_test

import (
	"encoding/csv"
	"fmt"
	"log"

	"github.com/gendisc/gendisc/datasets"
	"github.com/gendisc/gendisc/text"
)

func ExampleTokenize() {
	fmt.Println(text.Tokenize(nil, "FREE entry: win £1000, txt WIN to 87121! Ünïcode_ok"))
	// Output: [free entry win 1000 txt win to 87121 ünïcode ok]
}

// The spam filter's bag of words: unigrams and bigrams of the bundled SMS
// messages, English stop words removed, terms in at least 5 messages (the
// figures are CountVectorizer's with the same settings).
func ExampleVectorizerConfig_FitTransform() {
	rc, err := datasets.Open("sms_spam")
	if err != nil {
		log.Fatal(err)
	}
	defer rc.Close()
	rows, err := csv.NewReader(rc).ReadAll()
	if err != nil {
		log.Fatal(err)
	}
	var docs []string
	for _, r := range rows[1:] {
		docs = append(docs, r[0])
	}

	cfg := text.VectorizerConfig{NGrams: text.NGrams{Min: 1, Max: 2}, StopWords: "english", MinDF: text.DocFreq{Count: 5}}
	vocab, counts, err := cfg.FitTransform(docs)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(vocab.Len(), "terms,", counts.Rows, "messages,", counts.NNZ(), "stored counts")
	j, _ := vocab.Index("free entry")
	fmt.Printf("column %d is %q, in %v messages\n", j, vocab.Term(j), counts.Binarize().ColumnSums(nil, nil)[j])

	m, unseen := vocab.Transform([]string{"URGENT! You have won a FREE entry, call now", "see you at lunch"})
	fmt.Println(m.NNZ(), "known terms,", unseen, "unknown")
	// Output:
	// 2498 terms, 5574 messages, 44968 stored counts
	// column 815 is "free entry", in 16 messages
	// 6 known terms, 2 unknown
}

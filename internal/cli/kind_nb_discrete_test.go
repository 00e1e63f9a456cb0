package cli

func init() {
	kindData["categorical-nb"] = "mushroom"
}

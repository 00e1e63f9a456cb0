package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
)

// shells are the shells that completion writes scripts for.
var shells = []string{"bash", "zsh", "fish", "powershell"}

var cmdCompletion = &Command{
	Name:      "completion",
	UsageLine: "completion bash|zsh|fish|powershell",
	Short:     "print a shell completion script",
	Long: `
Completion prints a script that completes gendisc's command lines in the
shell named: the commands, each command's flags, the model kinds after
--model (fit, balance, impute) and --models (compare), the bundled data
sets and the files after --data, files after the other flags that take a
value. The zsh script loads the bash one through zsh's bashcompinit; the
PowerShell script registers a native argument completer.

Example:

	source <(gendisc completion bash)       # in ~/.bashrc
	source <(gendisc completion zsh)        # in ~/.zshrc
	gendisc completion fish > ~/.config/fish/completions/gendisc.fish
	gendisc completion powershell | Out-String | Invoke-Expression   # in $PROFILE`,
	Args: true,
	Flags: func(fs *flag.FlagSet, args []string) Runner {
		return func(ctx context.Context, env *Env) error {
			if fs.NArg() != 1 || !slices.Contains(shells, fs.Arg(0)) {
				return usagef("want one shell: %s", strings.Join(shells, ", "))
			}
			spec := completionSpec()
			switch fs.Arg(0) {
			case "bash":
				return spec.writeBash(env.Stdout)
			case "zsh":
				fmt.Fprint(env.Stdout, "#compdef gendisc\n# zsh completion for gendisc: completes through bashcompinit.\n"+
					"if ! (( $+functions[compdef] )); then\n\tautoload -U +X compinit && compinit\nfi\n"+
					"autoload -U +X bashcompinit && bashcompinit\n")
				return spec.writeBash(env.Stdout)
			case "powershell":
				return spec.writePowerShell(env.Stdout)
			}
			return spec.writeFish(env.Stdout)
		}
	},
}

// completionFlag is a flag as completion sees it.
type completionFlag struct {
	name, usage string
	value       string // what follows the flag: "" (a bool flag), "kind", "data" or "file"
}

// completionCommand is a command and its flags, sorted by name.
type completionCommand struct {
	name, short string
	flags       []completionFlag
	args        []string // words to complete as its arguments
}

type completion struct {
	commands []completionCommand
	kinds    []string
	data     []string
}

// completionSpec gathers the commands, their flags (every model kind's
// flags for the commands that take --model KIND), the kinds and the
// bundled data sets.
func completionSpec() *completion {
	c := &completion{kinds: kindNames(), data: bundledNames()}
	for _, cmd := range commands {
		cc := completionCommand{name: cmd.Name, short: cmd.Short}
		fs, _ := commandFlags(cmd, &Env{}, []string{}) // not nil: the commands that fit a kind define every kind's flags
		fs.VisitAll(func(f *flag.Flag) {
			name, usage := flag.UnquoteUsage(f)
			cf := completionFlag{name: f.Name, usage: usage}
			if b, ok := f.Value.(interface{ IsBoolFlag() bool }); !ok || !b.IsBoolFlag() {
				switch {
				case f.Name == "data":
					cf.value = "data"
				case name == "kind" || f.Name == "models":
					cf.value = "kind"
				default:
					cf.value = "file"
				}
			}
			cc.flags = append(cc.flags, cf)
		})
		switch cmd.Name {
		case "completion":
			cc.args = shells
		case "datasets":
			cc.args = append([]string{"export"}, c.data...)
		}
		c.commands = append(c.commands, cc)
	}
	help := completionCommand{name: "help", short: "print the help of a command"}
	for _, cc := range c.commands {
		help.args = append(help.args, cc.name)
	}
	c.commands = append(c.commands, help)
	return c
}

// writeBash writes the bash completion function _gendisc.
func (c *completion) writeBash(w io.Writer) error {
	var b strings.Builder
	names := make([]string, len(c.commands))
	for i, cc := range c.commands {
		names[i] = cc.name
	}
	fmt.Fprintf(&b, `# bash completion for gendisc (gendisc completion bash).
_gendisc() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	local kinds=%s data=%s
	if [ "$COMP_CWORD" -eq 1 ]; then
		COMPREPLY=($(compgen -W %s -- "$cur"))
		return
	fi
	local flags="" valued="" kindflags="" args=""
	case "${COMP_WORDS[1]}" in
`, shQuote(strings.Join(c.kinds, " ")), shQuote(strings.Join(c.data, " ")), shQuote(strings.Join(names, " ")+" --help --version"))
	for _, cc := range c.commands {
		var flags, valued, kindflags []string
		for _, f := range cc.flags {
			flags = append(flags, dashed(f.name))
			switch f.value {
			case "kind":
				kindflags = append(kindflags, dashed(f.name))
			case "file", "data":
				valued = append(valued, dashed(f.name))
			}
		}
		fmt.Fprintf(&b, "\t%s) flags=%s valued=%s kindflags=%s args=%s ;;\n", cc.name,
			shQuote(strings.Join(append(flags, "--help"), " ")), shQuote(strings.Join(valued, " ")), shQuote(strings.Join(kindflags, " ")), shQuote(strings.Join(cc.args, " ")))
	}
	b.WriteString(`	esac
	if [[ " $kindflags " == *" $prev "* ]]; then
		COMPREPLY=($(compgen -W "$kinds" -- "$cur"))
	elif [ "$prev" = --data ] && [[ " $valued " == *" --data "* ]]; then
		COMPREPLY=($(compgen -W "$data" -- "$cur") $(compgen -f -- "$cur"))
	elif [[ " $valued " == *" $prev "* ]]; then
		COMPREPLY=($(compgen -f -- "$cur"))
	elif [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$flags" -- "$cur"))
	elif [ -n "$args" ]; then
		COMPREPLY=($(compgen -W "$args" -- "$cur"))
	else
		COMPREPLY=($(compgen -f -- "$cur"))
	fi
}
complete -o filenames -F _gendisc gendisc
`)
	_, err := io.WriteString(w, b.String())
	return err
}

// writeFish writes fish's complete commands.
func (c *completion) writeFish(w io.Writer) error {
	var b strings.Builder
	b.WriteString("# fish completion for gendisc (gendisc completion fish).\ncomplete -c gendisc -f\n")
	b.WriteString("complete -c gendisc -n __fish_use_subcommand -l version -d 'print the version'\n")
	for _, cc := range c.commands {
		fmt.Fprintf(&b, "complete -c gendisc -n __fish_use_subcommand -a %s -d %s\n", cc.name, fishQuote(cc.short))
	}
	for _, cc := range c.commands {
		cond := fishQuote("__fish_seen_subcommand_from " + cc.name)
		if len(cc.args) > 0 {
			fmt.Fprintf(&b, "complete -c gendisc -n %s -a %s\n", cond, fishQuote(strings.Join(cc.args, " ")))
		}
		for _, f := range cc.flags {
			opt := "-l " + f.name
			if len(f.name) == 1 {
				opt = "-s " + f.name
			}
			switch f.value {
			case "kind":
				opt += " -x -a " + fishQuote(strings.Join(c.kinds, " "))
			case "data":
				opt += " -r -F -a " + fishQuote(strings.Join(c.data, " "))
			case "file":
				opt += " -r -F"
			}
			usage, _, _ := strings.Cut(f.usage, "\n")
			if len(usage) > 70 {
				usage = usage[:strings.LastIndexByte(usage[:70], ' ')+1] + "…"
			}
			fmt.Fprintf(&b, "complete -c gendisc -n %s %s -d %s\n", cond, opt, fishQuote(usage))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writePowerShell writes a PowerShell script that registers a native
// argument completer for gendisc, completing as the bash script does: the
// command first, then its flags, the kinds after a flag that takes one,
// the bundled data sets and files after --data, files after the other
// flags that take a value, and the command's arguments.
func (c *completion) writePowerShell(w io.Writer) error {
	var b strings.Builder
	names := make([]string, len(c.commands))
	for i, cc := range c.commands {
		names[i] = cc.name
	}
	b.WriteString("# PowerShell completion for gendisc (gendisc completion powershell).\n")
	fmt.Fprintf(&b, "$gendiscKinds = @(%s)\n$gendiscData = @(%s)\n$gendiscCommands = @(%s)\n$gendiscSpec = @{\n",
		psList(c.kinds), psList(c.data), psList(append(names, "--help", "--version")))
	for _, cc := range c.commands {
		var flags, valued, kindflags []string
		for _, f := range cc.flags {
			flags = append(flags, dashed(f.name))
			switch f.value {
			case "kind":
				kindflags = append(kindflags, dashed(f.name))
			case "file", "data":
				valued = append(valued, dashed(f.name))
			}
		}
		fmt.Fprintf(&b, "\t%s = @{ Flags = @(%s); Valued = @(%s); KindFlags = @(%s); Args = @(%s) }\n", psQuote(cc.name),
			psList(append(flags, "--help")), psList(valued), psList(kindflags), psList(cc.args))
	}
	b.WriteString(`}
Register-ArgumentCompleter -Native -CommandName gendisc -ScriptBlock {
	param($wordToComplete, $commandAst, $cursorPosition)
	$words = @($commandAst.CommandElements | ForEach-Object { $_.ToString() })
	if ($wordToComplete -eq '') { $words += '' }
	$files = { Get-ChildItem -Path "$wordToComplete*" -ErrorAction SilentlyContinue | ForEach-Object { $_.Name } }
	if ($words.Count -le 2) {
		$candidates = $gendiscCommands
	} else {
		$spec = $gendiscSpec[$words[1]]
		$prev = $words[$words.Count - 2]
		if ($null -eq $spec) {
			$candidates = & $files
		} elseif ($spec.KindFlags -contains $prev) {
			$candidates = $gendiscKinds
		} elseif ($prev -eq '--data' -and $spec.Valued -contains '--data') {
			$candidates = @($gendiscData) + @(& $files)
		} elseif ($spec.Valued -contains $prev) {
			$candidates = & $files
		} elseif ($wordToComplete -like '-*') {
			$candidates = $spec.Flags
		} elseif ($spec.Args.Count -gt 0) {
			$candidates = $spec.Args
		} else {
			$candidates = & $files
		}
	}
	$candidates | Where-Object { $_ -like "$wordToComplete*" } | ForEach-Object {
		[System.Management.Automation.CompletionResult]::new($_, $_, 'ParameterValue', $_)
	}
}
`)
	_, err := io.WriteString(w, b.String())
	return err
}

// psList writes words as the items of a PowerShell array, each quoted.
func psList(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = psQuote(w)
	}
	return strings.Join(q, ", ")
}

// psQuote quotes s for PowerShell in single quotes.
func psQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// shQuote quotes s for a POSIX shell in single quotes.
func shQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// fishQuote quotes s for fish in single quotes.
func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

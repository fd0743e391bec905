package main

import (
	"bytes"
	"flag"
	"os"
	"strings"
	"testing"

	"cordillera/commands"
)

// TestHelpListsEveryCommand: "cordillera --help", "-h" and "help" print
// the command list (not the explorer's flags), and it names every command
// run dispatches.
func TestHelpListsEveryCommand(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"-h"}, {"-help"}, {"help"}} {
		var out, errOut bytes.Buffer
		if code := run(args, &out, &errOut); code != 0 {
			t.Fatalf("%v: exit %d, stderr %q", args, code, errOut.String())
		}
		for _, cmd := range []string{"render", "generate", "presets", "sweep", "plot", "web", "help"} {
			if !strings.Contains(out.String(), "cordillera "+cmd) {
				t.Errorf("%v: the command list does not mention %q:\n%s", args, cmd, out.String())
			}
		}
	}
}

// TestHelpCommand: "help generate" prints generate's own flags, as
// "generate -help" does, and exits 0.
func TestHelpCommand(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"help", "generate"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errOut.String())
	}
	all := out.String() + errOut.String()
	if !strings.Contains(all, "usage: cordillera generate") || !strings.Contains(all, "-algorithm") {
		t.Errorf("help generate printed %q; want generate's flags", all)
	}
	var o2, e2 bytes.Buffer
	if code := run([]string{"help", "nonsense"}, &o2, &e2); code != 2 || !strings.Contains(e2.String(), `unknown command "nonsense"`) {
		t.Errorf("help nonsense: exit %d, stderr %q; want exit 2 naming the command", code, e2.String())
	}
}

//go:generate go test . -run TestCommandDocs -update

var update = flag.Bool("update", false, "rewrite README's command list and main.go's doc comment from commands.Commands")

const (
	commandsBegin = "<!-- commands: generated from commands.Commands by: go test . -run TestCommandDocs -update -->\n"
	commandsEnd   = "<!-- end of commands -->\n"
)

// commandLines are the command list's lines, without its heading and its
// closing note.
func commandLines() []string {
	text := commands.UsageText()
	text = strings.TrimPrefix(text, "usage:\n")
	text = text[:strings.Index(text, "\n\n")]
	return strings.Split(text, "\n")
}

// readmeCommands is README's command list: the lines "cordillera help"
// prints.
func readmeCommands() string {
	return "```text\n" + strings.Join(commandLines(), "\n") + "\n```\n"
}

// mainDoc is main.go's doc comment: the same lines, as a Go code block.
func mainDoc() string {
	var b strings.Builder
	b.WriteString("// Command cordillera generates fractal terrain and explores it.\n//\n")
	for _, l := range commandLines() {
		b.WriteString("//\t" + strings.TrimPrefix(l, "  ") + "\n")
	}
	return b.String()
}

// TestCommandDocs: README's command list and main.go's doc comment are
// made from commands.Commands, so a command added to the table (or a
// changed description) fails here until they are regenerated.
func TestCommandDocs(t *testing.T) {
	const regen = "go test . -run TestCommandDocs -update"
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	i, j := bytes.Index(readme, []byte(commandsBegin)), bytes.Index(readme, []byte(commandsEnd))
	if i < 0 || j < i {
		t.Fatalf("README.md has no command list between %q and %q", commandsBegin, commandsEnd)
	}
	gotList, wantList := string(readme[i+len(commandsBegin):j]), readmeCommands()
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	k := bytes.Index(src, []byte("package main\n"))
	if k < 0 {
		t.Fatal("main.go has no package clause")
	}
	gotDoc, wantDoc := string(src[:k]), mainDoc()
	if *update {
		if gotList != wantList {
			out := bytes.Join([][]byte{readme[:i+len(commandsBegin)], []byte(wantList), readme[j:]}, nil)
			if err := os.WriteFile("README.md", out, 0o644); err != nil {
				t.Fatal(err)
			}
			gotList = wantList
		}
		if gotDoc != wantDoc {
			if err := os.WriteFile("main.go", append([]byte(wantDoc), src[k:]...), 0o644); err != nil {
				t.Fatal(err)
			}
			gotDoc = wantDoc
		}
	}
	if gotList != wantList {
		t.Errorf("README's command list differs from commands.Commands; regenerate it with: %s\nREADME:\n%s\ncode:\n%s", regen, gotList, wantList)
	}
	if gotDoc != wantDoc {
		t.Errorf("main.go's doc comment differs from commands.Commands; regenerate it with: %s\nmain.go:\n%s\ncode:\n%s", regen, gotDoc, wantDoc)
	}
}

// TestHelpEveryCommand: "help NAME" answers for every command of the
// table, with its own usage, and exits 0; so does "NAME -help" for each
// command that takes flags.
func TestHelpEveryCommand(t *testing.T) {
	for _, c := range commands.Commands() {
		var out, errOut bytes.Buffer
		if code := run([]string{"help", c.Name}, &out, &errOut); code != 0 {
			t.Errorf("help %s: exit %d, stderr %q", c.Name, code, errOut.String())
		}
		if all := out.String() + errOut.String(); !strings.Contains(all, "usage: cordillera") && !strings.Contains(all, "cordillera "+c.Forms[0].Call) {
			t.Errorf("help %s printed %q; want its usage", c.Name, all)
		}
		if c.NoFlags {
			continue
		}
		out.Reset()
		errOut.Reset()
		if code := run([]string{c.Name, "-help"}, &out, &errOut); code != 0 {
			t.Errorf("%s -help: exit %d, stderr %q", c.Name, code, errOut.String())
		}
	}
}

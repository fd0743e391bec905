package terrain

import (
	"encoding/json"
	"strings"
	"testing"
)

// Yes-or-no parameters are booleans: a parameter file gives them as JSON
// true or false (and, as files written before, the strings "true" and
// "false"), writes them back as booleans, and refuses anything else with
// an error naming the key.
func TestBooleanParameters(t *testing.T) {
	for _, name := range []string{"tileable", "route-keep-all"} {
		s, ok := SpecByName(name)
		if !ok || s.Kind != BoolParam {
			t.Fatalf("%s: kind %v, want BoolParam", name, s.Kind)
		}
		for in, want := range map[string]string{`true`: "true", `false`: "false", `"true"`: "true", `"false"`: "false"} {
			p := DefaultParams()
			if err := json.Unmarshal([]byte(`{"`+name+`": `+in+`}`), &p); err != nil {
				t.Fatalf("%s: %s: %v", name, in, err)
			}
			if got := s.Get(&p); got != want {
				t.Errorf("%s: %s read as %s, want %s", name, in, got, want)
			}
			out, err := json.Marshal(p)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(out), `"`+name+`":`+want) {
				t.Errorf("%s: written as %s, want the boolean %s", name, out, want)
			}
		}
		for _, bad := range []string{`1`, `"yes"`, `null`} {
			p := DefaultParams()
			err := json.Unmarshal([]byte(`{"`+name+`": `+bad+`}`), &p)
			if err == nil || !strings.Contains(err.Error(), name) {
				t.Errorf("%s: %s gave error %v, want one naming the key", name, bad, err)
			}
		}
	}
}

package inputfile

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cordillera/internal/testenv"
)

// A file of exactly the limit is read whole; one byte more is refused,
// through Open and through ReadAll.
func TestLimitIsInclusive(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "p.json")
	if err := os.WriteFile(path, []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	data, err := ReadAll(path, 10, "a parameter file")
	if err != nil || string(data) != "0123456789" {
		t.Errorf("a 10-byte file with limit 10: %q, %v; want it whole", data, err)
	}
	f, size, err := Open(path, 10, "a parameter file")
	if err != nil || size != 10 {
		t.Errorf("Open at the limit: size %d, %v", size, err)
	} else {
		f.Close()
	}
	if _, _, err := Open(path, 9, "a parameter file"); err == nil || !strings.Contains(err.Error(), "10 bytes is too large for a parameter file (at most 9 bytes)") {
		t.Errorf("Open one byte over: %v", err)
	}
}

// A file that says it is small but holds more (it grew after it was
// looked at, or it is a /proc file, which reports size 0) is refused once
// the read passes the limit, not read on without end.
func TestReadAllRefusesWhatGrowsPastTheLimit(t *testing.T) {
	const path = "/proc/self/status"
	info, err := os.Stat(path)
	if err != nil || !info.Mode().IsRegular() || info.Size() != 0 {
		t.Skipf("%s is not a regular file reporting size 0 here", path)
	}
	if _, err := ReadAll(path, 100, "a parameter file"); err == nil || !strings.Contains(err.Error(), "101 bytes is too large for a parameter file (at most 100 bytes)") {
		t.Errorf("a file holding more than it said: %v", err)
	}
	data, err := ReadAll(path, 1<<20, "a status")
	if err != nil || !strings.Contains(string(data), "VmRSS") {
		t.Errorf("read within the limit: %d bytes, %v", len(data), err)
	}
}

// Every kind of file is named in the refusal, and a FIFO is refused
// without blocking.
func TestKindNamesEveryMode(t *testing.T) {
	for m, want := range map[fs.FileMode]string{
		0o644:                             "a regular file",
		fs.ModeDir | 0o755:                "a directory",
		fs.ModeSymlink | 0o777:            "a symbolic link",
		fs.ModeNamedPipe:                  "a named pipe (FIFO)",
		fs.ModeSocket:                     "a socket",
		fs.ModeDevice:                     "a device",
		fs.ModeDevice | fs.ModeCharDevice: "a device",
		fs.ModeIrregular:                  "a special file (?---------)",
	} {
		if got := Kind(m); got != want {
			t.Errorf("Kind(%v) = %q, want %q", m, got, want)
		}
	}
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := testenv.Mkfifo(fifo); err != nil {
		t.Skip(err)
	}
	if _, err := ReadAll(fifo, 100, "a track"); err == nil || !strings.Contains(err.Error(), "a named pipe (FIFO), not a regular file; want a track") {
		t.Errorf("a FIFO: %v", err)
	}
}

// Sizes change unit exactly at 1 KB, 1 MB and 1 GB.
func TestBytesUnitsAtTheirBoundaries(t *testing.T) {
	for n, want := range map[int64]string{
		0: "0 bytes", 1023: "1023 bytes", 1024: "1 KB", 1<<20 - 512: "1024 KB", 1 << 20: "1 MB",
		1<<30 - 1<<19: "1024 MB", 1 << 30: "1 GB", 3 << 29: "1.5 GB",
	} {
		if got := Bytes(n); got != want {
			t.Errorf("Bytes(%d) = %q, want %q", n, got, want)
		}
	}
}

// A file replaced between the check and the opening (by a larger one) is
// checked again once open: what was opened is what is refused.
func TestOpenChecksWhatItOpened(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "p.json")
	big := filepath.Join(dir, "big.json")
	if err := os.WriteFile(path, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(big, make([]byte, 4096), 0o644); err != nil {
		t.Fatal(err)
	}
	betweenStatAndOpen = func(p string) {
		if err := os.Rename(big, p); err != nil {
			t.Error(err)
		}
	}
	defer func() { betweenStatAndOpen = func(string) {} }()
	f, _, err := Open(path, 100, "a parameter file")
	if err == nil {
		f.Close()
	}
	if err == nil || !strings.Contains(err.Error(), "4 KB is too large for a parameter file (at most 100 bytes)") {
		t.Errorf("a file swapped for a 4 KB one after its check: %v; want it refused", err)
	}
}

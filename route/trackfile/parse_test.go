package trackfile

import (
	"bytes"
	"cordillera/route/track"
	"cordillera/route/track/tracktest"
	"encoding/binary"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/muktihari/fit/encoder"
	"github.com/muktihari/fit/kit/hash/crc16"
	"github.com/muktihari/fit/profile/filedef"
	"github.com/muktihari/fit/profile/mesgdef"
	"github.com/muktihari/fit/profile/typedef"
)

const kmlTrack = `<?xml version="1.0" encoding="UTF-8"?>
<kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2"><Document>
<Placemark><LineString><coordinates>14,46,300 14.001,46,301
 14.002,46.001,302</coordinates></LineString></Placemark>
<Placemark><gx:Track><when>2020-01-01T00:00:00Z</when><gx:coord>14.01 46.01 310</gx:coord><gx:coord>14.011 46.01 311</gx:coord></gx:Track></Placemark>
</Document></kml>`

func TestParseKML(t *testing.T) {
	tr, err := Parse([]byte(kmlTrack))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != track.KML || len(tr.Segments) != 2 || len(tr.Segments[0]) != 3 || len(tr.Segments[1]) != 2 ||
		tr.Segments[0][2] != (track.Point{Lat: 46.001, Lon: 14.002, Ele: 302, HasEle: true}) || tr.Segments[1][1].Ele != 311 {
		t.Errorf("parsed %+v", tr)
	}
}

// An empty <gx:coord/>, which OpenTracks writes where a recording paused
// or resumed, ends the segment (it refused the whole file).
func TestParseKMLPausedTrack(t *testing.T) {
	const paused = `<kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2"><Placemark><gx:MultiTrack><gx:Track>
<when>1</when><when>2</when><when>3</when><when>4</when><when>5</when><when>6</when><when>7</when>
<gx:coord/><gx:coord>14.01 46.01 310</gx:coord><gx:coord>14.011 46.01 311</gx:coord><gx:coord/>
<gx:coord>14.02 46.01 320</gx:coord><gx:coord>14.021 46.01 321</gx:coord><gx:coord/>
</gx:Track></gx:MultiTrack></Placemark></kml>`
	tr, err := Parse([]byte(paused))
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Segments) != 2 || len(tr.Segments[0]) != 2 || len(tr.Segments[1]) != 2 || tr.Segments[1][0].Ele != 320 {
		t.Errorf("parsed %+v", tr.Segments)
	}
}

// fitActivity encodes an activity of the points with the FIT library.
func fitActivity(t testing.TB, pts []track.Point) []byte {
	act := filedef.NewActivity()
	act.FileId = *mesgdef.NewFileId(nil).SetType(typedef.FileActivity)
	for _, p := range pts {
		r := mesgdef.NewRecord(nil).SetPositionLatDegrees(p.Lat).SetPositionLongDegrees(p.Lon)
		if p.HasEle {
			r.SetEnhancedAltitudeScaled(p.Ele)
		}
		act.Records = append(act.Records, r)
	}
	fit := act.ToFIT(nil)
	var buf bytes.Buffer
	if err := encoder.New(&buf).Encode(&fit); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestParseFIT(t *testing.T) {
	data := fitActivity(t, tracktest.Walk(50, 5, tracktest.Rolling))
	if Detect(data) != track.FIT {
		t.Fatalf("detected %q", Detect(data))
	}
	tr, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Segments) != 1 || len(tr.Segments[0]) != 50 || math.Abs(tr.Segments[0][10].Ele-tracktest.Rolling(10)) > 0.2 ||
		math.Abs(tr.Segments[0][10].Lat-46) > 0.01 {
		t.Errorf("parsed %d segments, %+v", len(tr.Segments), tr.Segments[0][10])
	}
	if _, err := Parse(data[:len(data)/2]); err == nil {
		t.Error("a truncated FIT file parsed")
	}
}

// FIT checksums are the protocol's, over the header and the data: a file
// with a 12-byte header (the FIT SDK's own Activity.fit, Garmin Edge 500
// activities), which the decoder refused for a checksum over the data
// alone, parses as the same file with a 14-byte header does; a wrong
// checksum is read with a warning that names it.
func TestParseFITChecksums(t *testing.T) {
	data := fitActivity(t, tracktest.Walk(50, 5, tracktest.Rolling))
	if data[0] != 14 {
		t.Fatalf("the encoder wrote a %d-byte header", data[0])
	}
	want, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	crc := func(b []byte) []byte {
		h := crc16.New(nil)
		_, _ = h.Write(b)
		return binary.LittleEndian.AppendUint16(nil, h.Sum16())
	}
	short := append([]byte{12}, data[1:12]...)
	short = append(short, data[14:len(data)-2]...)
	short = append(short, crc(short)...)
	got, err := Parse(short)
	if err != nil {
		t.Fatalf("12-byte header: %v", err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("12-byte header: parsed differently")
	}
	// A wrong checksum over fine data (GPSBabel reads such files) is read,
	// with a warning naming the checksum.
	badSum := slices.Clone(data)
	badSum[len(badSum)-1] ^= 0x5a
	got, err = Parse(badSum)
	if err != nil {
		t.Fatalf("a wrong checksum over fine data: %v", err)
	}
	if !reflect.DeepEqual(got.Segments, want.Segments) || len(got.Warnings) != 1 || !strings.Contains(got.Warnings[0], "checksum 0x") || !strings.Contains(got.Warnings[0], "damaged") {
		t.Errorf("a wrong checksum over fine data: warnings %q, same points %v", got.Warnings, reflect.DeepEqual(got.Segments, want.Segments))
	}
	// A damaged byte: read with the warning where it still decodes,
	// refused naming the checksum where it does not.
	damaged := slices.Clone(data)
	damaged[len(damaged)/2] ^= 0x10
	if got, err := Parse(damaged); (err == nil && (len(got.Warnings) == 0 || !strings.Contains(got.Warnings[0], "checksum"))) || (err != nil && !strings.Contains(err.Error(), "checksum")) {
		t.Errorf("a damaged data byte: %v", err)
	}
	header := slices.Clone(data)
	header[1] ^= 0x01
	if got, err := Parse(header); (err == nil && (len(got.Warnings) == 0 || !strings.Contains(got.Warnings[0], "header's checksum"))) || (err != nil && !strings.Contains(err.Error(), "header's checksum")) {
		t.Errorf("a damaged header byte: %v", err)
	}
}

package trackfile_test

import (
	"fmt"

	"cordillera/route/trackfile"
)

// hill is a GPX track of five fixes climbing 40 m over about 1.1 km.
const hill = `<?xml version="1.0"?>
<gpx version="1.1" creator="example" xmlns="http://www.topografix.com/GPX/1/1">
<trk><trkseg>
<trkpt lat="46.000" lon="14.000"><ele>300</ele></trkpt>
<trkpt lat="46.002" lon="14.003"><ele>310</ele></trkpt>
<trkpt lat="46.004" lon="14.006"><ele>322</ele></trkpt>
<trkpt lat="46.006" lon="14.009"><ele>331</ele></trkpt>
<trkpt lat="46.008" lon="14.012"><ele>340</ele></trkpt>
</trkseg></trk>
</gpx>`

// Parse recognises the format from the content, not a file name.
func ExampleParse() {
	t, err := trackfile.Parse([]byte(hill))
	if err != nil {
		fmt.Println(err)
		return
	}
	p := t.Segments[0][4]
	fmt.Println(t.Format, len(t.Segments), t.Points(), p.Lat, p.Lon, p.Ele)

	_, err = trackfile.Parse([]byte("hello"))
	fmt.Println(err)
	// Output:
	// gpx 1 5 46.008 14.012 340
	// not a GPX, TCX, KML, FIT, GeoJSON or CSV route: as CSV, header "hello" names no latitude and longitude columns (lat/latitude, lon/lng/long/longitude)
}

package trackfile_test

import (
	"fmt"

	"cordillera/route/track/tracktest"
	"cordillera/route/trackfile"
)

// Parse recognises the format from the content, not a file name.
func ExampleParse() {
	// Five GPX fixes climbing 40 m over about 1.1 km.
	t, err := trackfile.Parse([]byte(tracktest.HillGPX))
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

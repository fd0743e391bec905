//go:build !js

package heightfile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/mrjoshuak/go-openexr/exr"
)

// The OpenEXR library maps files into memory with syscall.Mmap, which
// GOOS=js lacks; the browser build reads EXR through exr_library_js.go.

// decodeEXRLibrary reads a scanline OpenEXR image with
// github.com/mrjoshuak/go-openexr, for the compressions DecodeEXR does not
// decode itself (PIZ, B44, DWA), whose code it already read from the
// header. Tiled, deep and multi-part files and subsampled channels are
// errors.
func decodeEXRLibrary(r io.ReaderAt, size int64, _ int) (src *Source, err error) {
	// The library indexes its frame buffers with unchecked pointers; a
	// malformed file it fails to catch must not take the program down.
	defer func() {
		if p := recover(); p != nil {
			src, err = nil, fmt.Errorf("exr: malformed file (%v)", p)
		}
	}()
	f, err := exr.OpenReader(r, size)
	if err != nil {
		return nil, exrError(err)
	}
	if f.IsTiled() || f.IsDeep() || f.IsMultiPart() || f.NumParts() != 1 {
		return nil, errors.New("exr: tiled, deep or multi-part file; want a single-part scanline image")
	}
	h := f.Header(0)
	if h == nil {
		return nil, errors.New("exr: no header")
	}
	dw := h.DataWindow()
	if dw.Min.X != 0 || dw.Min.Y != 0 {
		return nil, fmt.Errorf("exr: data window starts at (%d,%d); want (0,0)", dw.Min.X, dw.Min.Y)
	}
	width, height := int64(dw.Max.X)+1, int64(dw.Max.Y)+1
	if err := checkFileSize("exr", int(min(max(width, 0), MaxFileSide+1)), int(min(max(height, 0), MaxFileSide+1))); err != nil {
		return nil, err
	}
	ch, err := heightChannel(h.Channels())
	if err != nil {
		return nil, err
	}
	w, hh := int(width), int(height)
	data := make([]float32, w*hh)
	fb := exr.NewFrameBuffer()
	fb.Set(ch.Name, exr.NewSliceFromFloat32(data, w, hh))
	if err := checkEXRChunks(r, size, f.Offsets(0)); err != nil {
		return nil, err
	}
	sr, err := exr.NewScanlineReader(f)
	if err != nil {
		return nil, exrError(err)
	}
	sr.SetFrameBuffer(fb)
	if err := sr.ReadPixels(0, hh-1); err != nil {
		return nil, exrError(err)
	}
	cellSize := math.NaN()
	if a := h.Get(exrCellSize); a != nil {
		if cs, ok := a.Value.(float64); ok {
			cellSize = cs
		}
	}
	return exrSource(data, w, hh, cellSize)
}

// heightChannel picks the channel that holds the heights.
func heightChannel(cl *exr.ChannelList) (exr.Channel, error) {
	if cl == nil || cl.Len() == 0 {
		return exr.Channel{}, errors.New("exr: no channels")
	}
	var ch exr.Channel
	switch {
	case cl.Get("Y") != nil:
		ch = *cl.Get("Y")
	case cl.Get("R") != nil:
		ch = *cl.Get("R")
	case cl.Len() == 1:
		ch = cl.At(0)
	default:
		return exr.Channel{}, fmt.Errorf("exr: channels %v; want Y, R or a single channel", cl.Names())
	}
	if ch.XSampling != 1 || ch.YSampling != 1 {
		return exr.Channel{}, fmt.Errorf("exr: channel %s is subsampled %d×%d; want full resolution", ch.Name, ch.XSampling, ch.YSampling)
	}
	return ch, nil
}

// checkEXRChunks checks that every chunk the offset table names lies
// inside the file, data and all: the library trusts a chunk's size field
// and would allocate up to 4 GiB for one.
func checkEXRChunks(r io.ReaderAt, size int64, offsets []int64) error {
	head := make([]byte, 8)
	for i, off := range offsets {
		if off < 0 || off > size-8 {
			return fmt.Errorf("exr: chunk %d at offset %d lies outside the %d-byte file", i, off, size)
		}
		if _, err := r.ReadAt(head, off); err != nil {
			return exrError(err)
		}
		if n := int64(binary.LittleEndian.Uint32(head[4:])); n > size-off-8 {
			return fmt.Errorf("exr: chunk %d claims %d bytes; only %d remain in the file", i, n, size-off-8)
		}
	}
	return nil
}

// exrError gives the library's errors the "exr:" prefix once.
func exrError(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("exr: truncated file: %w", err)
	}
	if bytes.HasPrefix([]byte(err.Error()), []byte("exr:")) {
		return err
	}
	return fmt.Errorf("exr: %w", err)
}

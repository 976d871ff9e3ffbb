// Package h264 groups an Annex B H.264 stream into access units and reads picture sizes from
// sequence parameter sets (ITU-T H.264 §7.3.2.1.1, §7.4.1.2.3).
package h264

import (
	"errors"
	"io"

	"github.com/pion/webrtc/v3/pkg/media/h264reader"
)

// NAL unit types that matter here (ITU-T H.264 Table 7-1).
const (
	TypeSlice     = 1
	TypeIDR       = 5
	TypeSEI       = 6
	TypeSPS       = 7
	TypePPS       = 8
	TypeAUD       = 9
	typePrefix    = 14
	typeReserved1 = 15
	typeReserved3 = 18
)

// maxAccessUnit bounds one access unit read from a file: far over a 1080p keyframe.
const maxAccessUnit = 8 << 20

var startCode = []byte{0, 0, 0, 1}

// AccessUnitReader reads access units (all NAL units of one picture) from an Annex B stream.
type AccessUnitReader struct {
	nals    *h264reader.H264Reader
	pending *h264reader.NAL
}

// NewAccessUnitReader reads from in.
func NewAccessUnitReader(in io.Reader) (*AccessUnitReader, error) {
	nals, err := h264reader.NewReader(in)
	if err != nil {
		return nil, err
	}
	return &AccessUnitReader{nals: nals}, nil
}

// AccessUnit is one picture's NAL units in Annex B form (each after a 4-byte start code).
type AccessUnit struct {
	AnnexB []byte
	IDR    bool
}

// Next returns the next access unit, or io.EOF. A new access unit begins (§7.4.1.2.3) at an
// access unit delimiter, SPS, PPS, SEI, prefix or reserved 15-18 NAL unit, or at a slice whose
// first_mb_in_slice is 0, once the current one holds a slice. first_mb_in_slice is the first
// ue(v) of the slice header, and a ue(v) of 0 is the single bit 1 (§9.1), so a slice starts a
// picture when the top bit after its NAL header byte is set.
func (r *AccessUnitReader) Next() (AccessUnit, error) {
	var unit AccessUnit
	hasSlice := false
	for {
		nal := r.pending
		r.pending = nil
		if nal == nil {
			var err error
			nal, err = r.nals.NextNAL()
			if errors.Is(err, io.EOF) || (err == nil && nal == nil) {
				if hasSlice {
					return unit, nil
				}
				return AccessUnit{}, io.EOF
			}
			if err != nil {
				return AccessUnit{}, err
			}
		}
		if len(nal.Data) == 0 {
			continue
		}
		kind := int(nal.UnitType)
		isSlice := kind == TypeSlice || kind == TypeIDR
		startsPicture := isSlice && len(nal.Data) > 1 && nal.Data[1]&0x80 != 0
		beginsUnit := kind == TypeAUD || kind == TypeSPS || kind == TypePPS || kind == TypeSEI ||
			kind == typePrefix || (kind >= typeReserved1 && kind <= typeReserved3) || startsPicture
		if hasSlice && beginsUnit {
			r.pending = nal
			return unit, nil
		}
		if len(unit.AnnexB)+len(startCode)+len(nal.Data) > maxAccessUnit {
			return AccessUnit{}, errors.New("H.264 access unit over 8 MiB")
		}
		unit.AnnexB = append(append(unit.AnnexB, startCode...), nal.Data...)
		if kind == TypeIDR {
			unit.IDR = true
		}
		hasSlice = hasSlice || isSlice
	}
}

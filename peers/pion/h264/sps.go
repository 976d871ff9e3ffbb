package h264

import (
	"errors"
	"fmt"
)

// Size is a picture size in pixels.
type Size struct{ Width, Height int }

var errShortSPS = errors.New("SPS ends early")

// bitReader reads the RBSP of a NAL unit, its emulation prevention bytes (0x000003 → 0x0000,
// §7.4.1) removed. The first error sticks: later reads return 0 and the caller checks err once.
type bitReader struct {
	data []byte
	bit  int
	err  error
}

func newRBSPReader(nal []byte) *bitReader {
	rbsp := make([]byte, 0, len(nal))
	zeros := 0
	for _, b := range nal {
		if zeros >= 2 && b == 3 {
			zeros = 0
			continue
		}
		if b == 0 {
			zeros++
		} else {
			zeros = 0
		}
		rbsp = append(rbsp, b)
	}
	return &bitReader{data: rbsp}
}

func (r *bitReader) u(n int) uint32 {
	var v uint32
	for i := 0; i < n && r.err == nil; i++ {
		if r.bit >= len(r.data)*8 {
			r.err = errShortSPS
			return 0
		}
		v = v<<1 | uint32(r.data[r.bit/8]>>(7-r.bit%8)&1)
		r.bit++
	}
	if r.err != nil {
		return 0
	}
	return v
}

// ue reads an Exp-Golomb ue(v) (§9.1); more than 31 leading zeros is no valid SPS field.
func (r *bitReader) ue() uint32 {
	zeros := 0
	for r.err == nil && r.u(1) == 0 {
		if zeros++; zeros > 31 {
			r.err = errors.New("Exp-Golomb code over 32 bits")
		}
	}
	rest := r.u(zeros)
	if r.err != nil {
		return 0
	}
	return (1<<zeros - 1) + rest
}

// se reads a signed Exp-Golomb se(v) (§9.1.1).
func (r *bitReader) se() int32 {
	v := r.ue()
	if v%2 == 1 {
		return int32((v + 1) / 2)
	}
	return -int32(v / 2)
}

// skipScalingList skips a scaling_list() of size coefficients (§7.3.2.1.1.1).
func (r *bitReader) skipScalingList(size int) {
	last, next := int32(8), int32(8)
	for j := 0; j < size && r.err == nil; j++ {
		if next != 0 {
			next = (last + r.se() + 256) % 256
		}
		if next != 0 {
			last = next
		}
	}
}

// highProfiles carry chroma_format_idc and the bit depths in their SPS (§7.3.2.1.1).
var highProfiles = map[uint32]bool{100: true, 110: true, 122: true, 244: true, 44: true, 83: true, 86: true,
	118: true, 128: true, 138: true, 139: true, 134: true, 135: true}

// maxMacroblocks bounds each dimension: 1024 macroblocks is 16384 pixels.
const maxMacroblocks = 1024

// SPSSize is the cropped picture size a sequence parameter set NAL unit (header byte
// included) describes (§7.3.2.1.1; cropping in CropUnitX/CropUnitY, §7.4.2.1.1).
func SPSSize(nal []byte) (Size, error) {
	if len(nal) < 4 || nal[0]&0x1f != TypeSPS {
		return Size{}, errors.New("not an SPS NAL unit")
	}
	r := newRBSPReader(nal[1:])
	profile := r.u(8)
	r.u(16) // constraint_set flags, reserved_zero_2bits, level_idc
	r.ue()  // seq_parameter_set_id
	chroma, separateColourPlanes := uint32(1), uint32(0)
	if highProfiles[profile] {
		if chroma = r.ue(); chroma > 3 {
			return Size{}, fmt.Errorf("SPS: chroma_format_idc %d", chroma)
		}
		if chroma == 3 {
			separateColourPlanes = r.u(1)
		}
		r.ue()           // bit_depth_luma_minus8
		r.ue()           // bit_depth_chroma_minus8
		r.u(1)           // qpprime_y_zero_transform_bypass_flag
		if r.u(1) == 1 { // seq_scaling_matrix_present_flag
			lists := 8
			if chroma == 3 {
				lists = 12
			}
			for i := 0; i < lists; i++ {
				if r.u(1) == 1 { // seq_scaling_list_present_flag[i]
					size := 16
					if i >= 6 {
						size = 64
					}
					r.skipScalingList(size)
				}
			}
		}
	}
	r.ue()          // log2_max_frame_num_minus4
	switch r.ue() { // pic_order_cnt_type
	case 0:
		r.ue() // log2_max_pic_order_cnt_lsb_minus4
	case 1:
		r.u(1) // delta_pic_order_always_zero_flag
		r.se() // offset_for_non_ref_pic
		r.se() // offset_for_top_to_bottom_field
		cycle := r.ue()
		if cycle > 255 {
			return Size{}, fmt.Errorf("SPS: num_ref_frames_in_pic_order_cnt_cycle %d", cycle)
		}
		for i := uint32(0); i < cycle; i++ {
			r.se() // offset_for_ref_frame[i]
		}
	}
	r.ue() // max_num_ref_frames
	r.u(1) // gaps_in_frame_num_value_allowed_flag
	widthMBs := r.ue() + 1
	heightMapUnits := r.ue() + 1
	frameMBsOnly := r.u(1)
	if frameMBsOnly == 0 {
		r.u(1) // mb_adaptive_frame_field_flag
	}
	r.u(1) // direct_8x8_inference_flag
	var left, right, top, bottom uint32
	if r.u(1) == 1 { // frame_cropping_flag
		left, right, top, bottom = r.ue(), r.ue(), r.ue(), r.ue()
	}
	if r.err != nil {
		return Size{}, fmt.Errorf("SPS: %w", r.err)
	}
	if widthMBs > maxMacroblocks || heightMapUnits > maxMacroblocks {
		return Size{}, fmt.Errorf("SPS: %d×%d macroblocks", widthMBs, heightMapUnits)
	}
	cropX, cropY := uint32(1), 2-frameMBsOnly
	if chroma != 0 && separateColourPlanes == 0 {
		if chroma == 1 || chroma == 2 { // SubWidthC 2
			cropX = 2
		}
		if chroma == 1 { // SubHeightC 2
			cropY *= 2
		}
	}
	width := int64(widthMBs*16) - int64(cropX)*(int64(left)+int64(right))
	height := int64((2-frameMBsOnly)*heightMapUnits*16) - int64(cropY)*(int64(top)+int64(bottom))
	if width <= 0 || height <= 0 {
		return Size{}, fmt.Errorf("SPS: cropping leaves %d×%d", width, height)
	}
	return Size{Width: int(width), Height: int(height)}, nil
}

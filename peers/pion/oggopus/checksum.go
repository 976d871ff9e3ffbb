// Package oggopus reads and writes Ogg Opus files packet by packet (RFC 3533, RFC 7845) and
// tells an Opus packet's duration from its TOC byte (RFC 6716 §3.1).
//
// Pion 3.1.56's oggreader returns whole page payloads (a page usually holds many Opus packets,
// agentd-samples' hold 50) and its oggwriter writes one lacing value per page, which corrupts
// any packet of 255 bytes or more: hence this package.
package oggopus

// checksumTable is the Ogg page CRC (RFC 3533 §6, "CRC_checksum"): CRC-32 with generator
// polynomial 0x04c11db7, initial value 0, no reflection and no final XOR, over the whole page
// with the checksum field set to zero.
var checksumTable = func() (table [256]uint32) {
	for i := range table {
		r := uint32(i) << 24
		for bit := 0; bit < 8; bit++ {
			if r&0x80000000 != 0 {
				r = r<<1 ^ 0x04c11db7
			} else {
				r <<= 1
			}
		}
		table[i] = r
	}
	return table
}()

func pageChecksum(parts ...[]byte) uint32 {
	var crc uint32
	for _, part := range parts {
		for _, b := range part {
			crc = crc<<8 ^ checksumTable[byte(crc>>24)^b]
		}
	}
	return crc
}

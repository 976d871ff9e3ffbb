package labnet

import (
	"net"
	"strings"

	"github.com/pion/webrtc/v3"
)

// FilterRemote drops from a remote SDP every a=candidate line whose connection address is not
// an IPv4 address in the confinement's subnet (an mDNS name, IPv6, another network), so that
// no connectivity check goes anywhere else. It returns the SDP and how many lines it dropped.
//
// The candidate attribute (RFC 8839 §5.1):
//
//	candidate:<foundation> <component-id> <transport> <priority> <connection-address> <port> typ <cand-type> ...
func (c Confinement) FilterRemote(sdp string) (string, int) {
	lines := strings.SplitAfter(sdp, "\n")
	kept := lines[:0]
	dropped := 0
	for _, line := range lines {
		trimmed := strings.TrimRight(line, "\r\n")
		if strings.HasPrefix(trimmed, "a=candidate:") && !c.allows(trimmed) {
			dropped++
			continue
		}
		kept = append(kept, line)
	}
	return strings.Join(kept, ""), dropped
}

func (c Confinement) allows(candidateLine string) bool {
	fields := strings.Fields(strings.TrimPrefix(candidateLine, "a=candidate:"))
	if len(fields) < 6 {
		return false
	}
	ip := net.ParseIP(fields[4])
	return ip != nil && ip.To4() != nil && c.Subnet != nil && c.Subnet.Contains(ip)
}

// FilterDescription is FilterRemote on a description from Janus, in place.
func (c Confinement) FilterDescription(description *webrtc.SessionDescription) int {
	var dropped int
	description.SDP, dropped = c.FilterRemote(description.SDP)
	return dropped
}

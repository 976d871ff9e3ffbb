package labnet

import (
	"net"
	"strings"
	"testing"
)

func TestFilterRemoteKeepsOnlyTheLabSubnet(t *testing.T) {
	_, subnet, _ := net.ParseCIDR("10.77.0.0/24")
	lab := Confinement{Interface: "agentd-lab0", Address: net.ParseIP("10.77.0.1"), Subnet: subnet}
	// A Janus-style answer: a host candidate in the lab, then ones that must never be tried.
	sdp := strings.Join([]string{
		"v=0",
		"m=audio 9 UDP/TLS/RTP/SAVPF 111",
		"a=candidate:1 1 udp 2015363327 10.77.0.2 40427 typ host",
		"a=candidate:2 1 udp 2015363583 192.168.1.20 40428 typ host",
		"a=candidate:3 1 udp 2015363583 fe80::1 40429 typ host",
		"a=candidate:4 1 udp 2015363583 5f3c2a.local 40430 typ host",
		"a=candidate:5 1 udp 1679819007 203.0.113.9 40431 typ srflx raddr 10.77.0.2 rport 40427",
		"a=candidate:6 1 udp",
		"a=end-of-candidates",
		"",
	}, "\r\n")
	filtered, dropped := lab.FilterRemote(sdp)
	if dropped != 5 {
		t.Fatalf("dropped %d, want 5:\n%s", dropped, filtered)
	}
	want := "v=0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\na=candidate:1 1 udp 2015363327 10.77.0.2 40427 typ host\r\na=end-of-candidates\r\n"
	if filtered != want {
		t.Fatalf("filtered:\n%q\nwant:\n%q", filtered, want)
	}
}

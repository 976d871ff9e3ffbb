// Package labnet confines the peers' ICE to the lab: one interface, its IPv4 address, and
// remote candidates inside that interface's subnet. Traffic may only go to addresses inside
// the lab namespace (the lab's Janus), never out by the default route.
package labnet

import (
	"fmt"
	"net"

	"github.com/pion/ice/v2"
	"github.com/pion/webrtc/v3"
)

// Confinement is the one interface and IPv4 address a PeerConnection may use.
type Confinement struct {
	Interface string
	Address   net.IP
	// Subnet holds the only remote addresses allowed (the interface's own subnet).
	Subnet *net.IPNet
}

// Confine finds interface name and its first IPv4 address.
func Confine(name string) (Confinement, error) {
	iface, err := net.InterfaceByName(name)
	if err != nil {
		return Confinement{}, fmt.Errorf("ICE interface %q: %w", name, err)
	}
	addresses, err := iface.Addrs()
	if err != nil {
		return Confinement{}, fmt.Errorf("addresses of %q: %w", name, err)
	}
	for _, address := range addresses {
		if network, ok := address.(*net.IPNet); ok && network.IP.To4() != nil {
			subnet := &net.IPNet{IP: network.IP.Mask(network.Mask), Mask: network.Mask}
			return Confinement{Interface: name, Address: network.IP.To4(), Subnet: subnet}, nil
		}
	}
	return Confinement{}, fmt.Errorf("interface %q has no IPv4 address", name)
}

// Apply restricts gathering to the interface and address, UDP over IPv4, with no mDNS (which
// would send multicast queries) and no loopback; the caller passes no ICE servers.
func (c Confinement) Apply(settings *webrtc.SettingEngine) {
	settings.SetInterfaceFilter(func(name string) bool { return name == c.Interface })
	settings.SetIPFilter(func(ip net.IP) bool { return ip.Equal(c.Address) })
	settings.SetNetworkTypes([]webrtc.NetworkType{webrtc.NetworkTypeUDP4})
	settings.SetICEMulticastDNSMode(ice.MulticastDNSModeDisabled)
	settings.SetIncludeLoopbackCandidate(false)
}

// Package peers holds the lab's Pion (Go WebRTC) test peers: a Janus VideoRoom publisher and
// subscriber built offline from Debian's golang-github-pion-webrtc.v3-dev in GOPATH mode
// (see ./build). This go.mod is not used for fetching anything (GO111MODULE=off): it is here
// because GOPATH mode resolves Pion's "/v3" import paths only for code inside a directory tree
// with a go.mod ("minimal module compatibility").
package peers

package janus

import (
	"fmt"
	"net"
	"time"

	"golang.org/x/net/websocket"
)

// Transport carries whole text messages: a WebSocket in use, a fake in tests.
type Transport interface {
	Send(text string) error
	Receive() (string, error)
	Close() error
}

// webSocket is a Transport over golang.org/x/net/websocket, which answers pings itself and
// serialises concurrent writers (RFC 6455 §5.5.2, §5.5.3).
type webSocket struct {
	conn *websocket.Conn
}

// maxMessage bounds one message from Janus; its largest are SDPs of a few kilobytes.
const maxMessage = 1 << 20

// DialWebSocket opens url with Janus's subprotocol "janus-protocol"; timeout covers the TCP
// connect and the opening handshake (RFC 6455 §4.1).
func DialWebSocket(url string, timeout time.Duration) (Transport, error) {
	config, err := websocket.NewConfig(url, "http://localhost/")
	if err != nil {
		return nil, fmt.Errorf("bad Janus URL %q: %w", url, err)
	}
	config.Protocol = []string{"janus-protocol"}
	dialer := net.Dialer{Timeout: timeout}
	raw, err := dialer.Dial("tcp", config.Location.Host)
	if err != nil {
		return nil, fmt.Errorf("connecting to %s: %w", url, err)
	}
	if err := raw.SetDeadline(time.Now().Add(timeout)); err != nil {
		raw.Close()
		return nil, err
	}
	conn, err := websocket.NewClient(config, raw)
	if err != nil {
		raw.Close()
		return nil, fmt.Errorf("WebSocket handshake with %s: %w", url, err)
	}
	if err := raw.SetDeadline(time.Time{}); err != nil {
		conn.Close()
		return nil, err
	}
	conn.MaxPayloadBytes = maxMessage
	return &webSocket{conn: conn}, nil
}

func (w *webSocket) Send(text string) error { return websocket.Message.Send(w.conn, text) }

func (w *webSocket) Receive() (string, error) {
	var text string
	err := websocket.Message.Receive(w.conn, &text)
	return text, err
}

func (w *webSocket) Close() error { return w.conn.Close() }

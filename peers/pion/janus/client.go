package janus

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand"
	"sync"
	"time"
)

// ErrClosed is returned for requests on a client whose connection has ended.
var ErrClosed = errors.New("Janus WebSocket closed")

// Client is one Janus connection with at most one session.
type Client struct {
	transport Transport
	token     string
	logf      func(format string, args ...interface{})

	mu        sync.Mutex
	pending   map[string]*pendingRequest
	handles   map[uint64]*Handle
	sessionID uint64
	nextID    uint64
	prefix    string

	closed        chan struct{}
	closeOnce     sync.Once
	readerDone    chan struct{}
	keepaliveStop chan struct{}
}

type pendingRequest struct {
	reply      chan Message
	ackIsFinal bool
}

// handleEventBuffer bounds the unsolicited events queued per handle; the peers read them at once.
const handleEventBuffer = 64

// NewClient starts reading from transport. token, when not empty, goes on every request; logf,
// when not nil, sees every message (the peers' --verbose).
func NewClient(transport Transport, token string, logf func(format string, args ...interface{})) *Client {
	c := &Client{
		transport:  transport,
		token:      token,
		logf:       logf,
		pending:    map[string]*pendingRequest{},
		handles:    map[uint64]*Handle{},
		prefix:     fmt.Sprintf("%08x", rand.Uint32()),
		closed:     make(chan struct{}),
		readerDone: make(chan struct{}),
	}
	go c.readLoop()
	return c
}

// Dial connects to a Janus WebSocket URL.
func Dial(url, token string, timeout time.Duration, logf func(string, ...interface{})) (*Client, error) {
	transport, err := DialWebSocket(url, timeout)
	if err != nil {
		return nil, err
	}
	return NewClient(transport, token, logf), nil
}

// Done is closed when the connection has ended.
func (c *Client) Done() <-chan struct{} { return c.closed }

func (c *Client) readLoop() {
	defer close(c.readerDone)
	defer c.markClosed()
	for {
		text, err := c.transport.Receive()
		if err != nil {
			if c.logf != nil {
				c.logf("janus: connection ended: %v", err)
			}
			return
		}
		var msg Message
		if err := json.Unmarshal([]byte(text), &msg); err != nil {
			if c.logf != nil {
				c.logf("janus: bad JSON from server: %.200q", text)
			}
			continue
		}
		if c.logf != nil {
			c.logf("janus < %.500s", text)
		}
		c.dispatch(msg)
	}
}

// dispatch hands a reply to its waiting request, and anything else to its handle (or drops it).
func (c *Client) dispatch(msg Message) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if request, ok := c.pending[msg.Transaction]; ok && msg.Transaction != "" {
		if msg.Janus == "ack" && !request.ackIsFinal {
			return // the real answer follows as an event
		}
		delete(c.pending, msg.Transaction)
		request.reply <- msg
		return
	}
	if handle, ok := c.handles[msg.Sender]; ok {
		select {
		case handle.events <- msg:
		default:
			if c.logf != nil {
				c.logf("janus: dropped an event for handle %d (queue full): %s", msg.Sender, msg.Janus)
			}
		}
	}
}

func (c *Client) markClosed() {
	c.closeOnce.Do(func() { close(c.closed) })
}

// Request sends msg (a "janus" request without transaction or ids) and waits up to timeout for
// its final reply: the "ack" when ackIsFinal (keepalive, trickle), else the "success" or
// "event" after it. An "error" reply is returned as *Error.
func (c *Client) Request(msg map[string]interface{}, handleID uint64, ackIsFinal bool, timeout time.Duration) (Message, error) {
	request := &pendingRequest{reply: make(chan Message, 1), ackIsFinal: ackIsFinal}
	c.mu.Lock()
	c.nextID++
	transaction := fmt.Sprintf("%s-%d", c.prefix, c.nextID)
	out := map[string]interface{}{"transaction": transaction}
	for key, value := range msg {
		out[key] = value
	}
	if c.sessionID != 0 && msg["janus"] != "create" {
		out["session_id"] = c.sessionID
	}
	if handleID != 0 {
		out["handle_id"] = handleID
	}
	if c.token != "" {
		out["token"] = c.token
	}
	c.pending[transaction] = request
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.pending, transaction)
		c.mu.Unlock()
	}()

	text, err := json.Marshal(out)
	if err != nil {
		return Message{}, err
	}
	select {
	case <-c.closed:
		return Message{}, ErrClosed
	default:
	}
	if c.logf != nil {
		c.logf("janus > %.500s", text)
	}
	if err := c.transport.Send(string(text)); err != nil {
		return Message{}, fmt.Errorf("sending %v: %w", msg["janus"], err)
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case reply := <-request.reply:
		if reply.Janus == "error" {
			if reply.Error == nil {
				return reply, &Error{Code: 0, Reason: "error without a body"}
			}
			return reply, &Error{Code: reply.Error.Code, Reason: reply.Error.Reason}
		}
		return reply, nil
	case <-c.closed:
		return Message{}, ErrClosed
	case <-timer.C:
		return Message{}, fmt.Errorf("no reply from Janus to %v within %v", msg["janus"], timeout)
	}
}

// idReply is the data of a create or attach reply.
type idReply struct {
	ID uint64 `json:"id"`
}

// CreateSession creates the session and starts a keepalive every keepalive: Janus drops a
// session that sees no request for session_timeout (60 s by default).
func (c *Client) CreateSession(keepalive time.Duration) error {
	reply, err := c.Request(map[string]interface{}{"janus": "create"}, 0, false, 15*time.Second)
	if err != nil {
		return err
	}
	var data idReply
	if err := json.Unmarshal(reply.Data, &data); err != nil || data.ID == 0 {
		return fmt.Errorf("create: no session id in %s", reply.Data)
	}
	c.mu.Lock()
	c.sessionID = data.ID
	c.keepaliveStop = make(chan struct{})
	stop := c.keepaliveStop
	c.mu.Unlock()
	go c.keepaliveLoop(keepalive, stop)
	return nil
}

func (c *Client) keepaliveLoop(every time.Duration, stop chan struct{}) {
	ticker := time.NewTicker(every)
	defer ticker.Stop()
	for {
		select {
		case <-stop:
			return
		case <-c.closed:
			return
		case <-ticker.C:
			if _, err := c.Request(map[string]interface{}{"janus": "keepalive"}, 0, true, 10*time.Second); err != nil && c.logf != nil {
				c.logf("janus: keepalive failed: %v", err)
			}
		}
	}
}

// Attach attaches a handle to plugin (e.g. VideoRoom).
func (c *Client) Attach(plugin string) (*Handle, error) {
	reply, err := c.Request(map[string]interface{}{"janus": "attach", "plugin": plugin}, 0, false, 15*time.Second)
	if err != nil {
		return nil, err
	}
	var data idReply
	if err := json.Unmarshal(reply.Data, &data); err != nil || data.ID == 0 {
		return nil, fmt.Errorf("attach: no handle id in %s", reply.Data)
	}
	handle := &Handle{client: c, ID: data.ID, events: make(chan Message, handleEventBuffer)}
	c.mu.Lock()
	c.handles[handle.ID] = handle
	c.mu.Unlock()
	return handle, nil
}

// Close destroys the session (best effort) and closes the connection. Safe to call twice.
func (c *Client) Close() {
	c.mu.Lock()
	stop := c.keepaliveStop
	c.keepaliveStop = nil
	hadSession := c.sessionID != 0
	c.mu.Unlock()
	if stop != nil {
		close(stop)
	}
	select {
	case <-c.closed:
	default:
		if hadSession {
			if _, err := c.Request(map[string]interface{}{"janus": "destroy"}, 0, false, 5*time.Second); err != nil && c.logf != nil {
				c.logf("janus: destroy failed: %v", err)
			}
		}
	}
	c.mu.Lock()
	c.sessionID = 0
	c.mu.Unlock()
	c.transport.Close()
	c.markClosed()
	<-c.readerDone
}

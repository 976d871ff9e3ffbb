package peer

import (
	"flag"
	"fmt"
	"os"
	"time"
)

// Room is where and as whom a peer joins, the flags of peers/publisher.py (and --ice-allow,
// as agentd spells it).
type Room struct {
	WS             string
	Room           string
	Display        string
	Token          string
	Pin            string
	Create         bool
	MaxPublishers  int
	ICEAllow       string
	Duration       time.Duration
	ConnectTimeout time.Duration
	Verbose        bool
	duration       float64
	connectTimeout float64
}

// AddFlags registers the flags on flags; withDisplay adds --display and --create (a publisher's).
func (r *Room) AddFlags(flags *flag.FlagSet, withDisplay bool) {
	flags.StringVar(&r.WS, "ws", "", "Janus WebSocket URL, e.g. ws://10.77.0.2:8188/ (required)")
	flags.StringVar(&r.Room, "room", "", "room id (string ids) (required)")
	if withDisplay {
		flags.StringVar(&r.Display, "display", "", "display name (required)")
		flags.BoolVar(&r.Create, "create", false, "create the room first (ignores 'already exists')")
		flags.IntVar(&r.MaxPublishers, "max-publishers", 16, "publisher limit of a room made by --create")
	}
	flags.StringVar(&r.Token, "token", "", "Janus core token sent on every request")
	flags.StringVar(&r.Pin, "pin", "", "room pin")
	flags.StringVar(&r.ICEAllow, "ice-allow", "agentd-lab0", "the only network interface ICE may use")
	flags.Float64Var(&r.duration, "duration", 0, "seconds to run after READY (0: until SIGTERM/SIGINT)")
	flags.Float64Var(&r.connectTimeout, "connect-timeout", 20, "seconds to wait for ICE and DTLS")
	flags.BoolVar(&r.Verbose, "verbose", false, "log Janus messages to stderr")
}

// Check validates the parsed flags, or returns what is wrong.
func (r *Room) Check(withDisplay bool) error {
	switch {
	case r.WS == "":
		return fmt.Errorf("--ws is required")
	case r.Room == "":
		return fmt.Errorf("--room is required")
	case withDisplay && r.Display == "":
		return fmt.Errorf("--display is required")
	case r.duration < 0 || r.duration > 86400:
		return fmt.Errorf("--duration must be 0 to 86400 seconds")
	case r.connectTimeout <= 0 || r.connectTimeout > 600:
		return fmt.Errorf("--connect-timeout must be over 0 and at most 600 seconds")
	}
	r.Duration = time.Duration(r.duration * float64(time.Second))
	r.ConnectTimeout = time.Duration(r.connectTimeout * float64(time.Second))
	return nil
}

// Parse parses the command line for a peer named name: the room flags, those extra adds, and
// Check; a usage error exits with status 2, as argparse does.
func (r *Room) Parse(name, usage string, withDisplay bool, extra func(*flag.FlagSet)) *flag.FlagSet {
	flags := flag.NewFlagSet(name, flag.ExitOnError)
	flags.Usage = func() {
		fmt.Fprintln(flags.Output(), usage)
		flags.PrintDefaults()
	}
	r.AddFlags(flags, withDisplay)
	extra(flags)
	if err := flags.Parse(os.Args[1:]); err != nil {
		Usage(flags, err)
	}
	if err := r.Check(withDisplay); err != nil {
		Usage(flags, err)
	}
	return flags
}

// Logf writes a line to stderr.
func Logf(format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, format+"\n", args...)
}

// Usage fails with exit status 2, as argparse does.
func Usage(flags *flag.FlagSet, err error) {
	fmt.Fprintf(os.Stderr, "%s: error: %v\n", flags.Name(), err)
	flags.Usage()
	os.Exit(2)
}

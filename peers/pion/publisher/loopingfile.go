package main

import (
	"fmt"
	"os"
)

// loopingFile is the file under a looped source: opened again from the start at its end.
type loopingFile struct {
	path      string
	file      *os.File
	parse     func(*os.File) error // reads the file's headers after each open
	loopCount int
	items     int // frames or packets read in this loop
}

func (l *loopingFile) open() error {
	if l.file != nil {
		l.file.Close()
	}
	file, err := os.Open(l.path)
	if err != nil {
		return err
	}
	if err := l.parse(file); err != nil {
		file.Close()
		return fmt.Errorf("%s: %w", l.path, err)
	}
	l.file = file
	return nil
}

// rewind starts the next loop; a loop that read nothing would spin, and is an error.
func (l *loopingFile) rewind(what string) error {
	if l.items == 0 {
		return fmt.Errorf("%s has no %s", l.path, what)
	}
	l.items = 0
	l.loopCount++
	return l.open()
}

func (l *loopingFile) loops() int   { return l.loopCount }
func (l *loopingFile) Close() error { return l.file.Close() }

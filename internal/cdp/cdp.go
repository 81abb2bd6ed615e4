// Package cdp drives a headless Chromium through the DevTools protocol over a pipe
// (--remote-debugging-pipe: JSON messages ending in a NUL byte on file descriptors 3 and 4), with no
// dependency beyond the standard library. It offers what the real-browser tests need: open a page,
// evaluate JavaScript in it and collect its uncaught exceptions and console errors.
package cdp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
)

// Browser is a running headless Chromium.
type Browser struct {
	cmd    *exec.Cmd
	toPipe *os.File

	mu       sync.Mutex
	nextID   int64
	pending  map[int64]chan message
	pages    map[string]*Page // by session id
	readErr  error
	readDone chan struct{}
}

// message is one DevTools protocol message: a command's answer (ID set) or an event (Method set).
type message struct {
	ID        int64           `json:"id,omitempty"`
	SessionID string          `json:"sessionId,omitempty"`
	Method    string          `json:"method,omitempty"`
	Params    json.RawMessage `json:"params,omitempty"`
	Result    json.RawMessage `json:"result,omitempty"`
	Error     *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error,omitempty"`
}

// Launch starts chromium (a path) headless with a fresh profile in userDataDir and the DevTools
// protocol on a pipe; extraArgs are appended to its flags (e.g. "--window-size=1200,900").
// Chromium's own output goes to log (nil discards it). Close ends it.
func Launch(chromium, userDataDir string, log io.Writer, extraArgs ...string) (*Browser, error) {
	fromBrowserR, fromBrowserW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("cdp: pipe: %w", err)
	}
	toBrowserR, toBrowserW, err := os.Pipe()
	if err != nil {
		fromBrowserR.Close()
		fromBrowserW.Close()
		return nil, fmt.Errorf("cdp: pipe: %w", err)
	}
	args := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
		"--no-first-run", "--no-default-browser-check", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--user-data-dir=" + userDataDir}, extraArgs...)
	cmd := exec.Command(chromium, append(args, "about:blank")...)
	cmd.ExtraFiles = []*os.File{toBrowserR, fromBrowserW} // fds 3 (commands in) and 4 (messages out)
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // Close ends chromium's helpers too
	if err := cmd.Start(); err != nil {
		for _, f := range []*os.File{fromBrowserR, fromBrowserW, toBrowserR, toBrowserW} {
			f.Close()
		}
		return nil, fmt.Errorf("cdp: starting %s: %w", chromium, err)
	}
	toBrowserR.Close()
	fromBrowserW.Close()
	b := &Browser{cmd: cmd, toPipe: toBrowserW, pending: map[int64]chan message{}, pages: map[string]*Page{}, readDone: make(chan struct{})}
	go b.read(fromBrowserR)
	return b, nil
}

// read dispatches the browser's messages until the pipe closes.
func (b *Browser) read(r io.ReadCloser) {
	defer close(b.readDone)
	defer r.Close()
	in := bufio.NewReaderSize(r, 1<<20)
	for {
		raw, err := in.ReadBytes(0)
		if err != nil {
			b.mu.Lock()
			b.readErr = fmt.Errorf("cdp: browser pipe closed: %w", err)
			for id, ch := range b.pending {
				close(ch)
				delete(b.pending, id)
			}
			b.mu.Unlock()
			return
		}
		var m message
		if err := json.Unmarshal(raw[:len(raw)-1], &m); err != nil {
			continue // not a protocol message: ignore
		}
		b.mu.Lock()
		if m.ID != 0 {
			if ch, ok := b.pending[m.ID]; ok {
				ch <- m
				delete(b.pending, m.ID)
			}
		} else if p, ok := b.pages[m.SessionID]; ok {
			p.event(m)
		}
		b.mu.Unlock()
	}
}

// Call sends method with params (nil for none) to the browser, or to the page of sessionID when
// set, and decodes the answer into result (nil to ignore it).
func (b *Browser) Call(ctx context.Context, sessionID, method string, params, result any) error {
	ch := make(chan message, 1)
	b.mu.Lock()
	if b.readErr != nil {
		b.mu.Unlock()
		return b.readErr
	}
	b.nextID++
	id := b.nextID
	b.pending[id] = ch
	b.mu.Unlock()
	cmd := struct {
		ID        int64  `json:"id"`
		SessionID string `json:"sessionId,omitempty"`
		Method    string `json:"method"`
		Params    any    `json:"params,omitempty"`
	}{id, sessionID, method, params}
	raw, err := json.Marshal(cmd)
	if err != nil {
		return fmt.Errorf("cdp: %s params: %w", method, err)
	}
	if _, err := b.toPipe.Write(append(raw, 0)); err != nil {
		return fmt.Errorf("cdp: sending %s: %w", method, err)
	}
	select {
	case m, ok := <-ch:
		if !ok {
			return fmt.Errorf("cdp: %s: browser gone: %w", method, b.readErr)
		}
		if m.Error != nil {
			return fmt.Errorf("cdp: %s: %s (code %d)", method, m.Error.Message, m.Error.Code)
		}
		if result != nil {
			if err := json.Unmarshal(m.Result, result); err != nil {
				return fmt.Errorf("cdp: %s result: %w", method, err)
			}
		}
		return nil
	case <-ctx.Done():
		b.mu.Lock()
		delete(b.pending, id)
		b.mu.Unlock()
		return fmt.Errorf("cdp: %s: %w", method, ctx.Err())
	}
}

// Close ends the browser and waits for it.
func (b *Browser) Close() error {
	b.toPipe.Close()
	err := b.cmd.Process.Kill()
	_ = syscall.Kill(-b.cmd.Process.Pid, syscall.SIGKILL) // the renderer and other helper processes
	<-b.readDone
	b.cmd.Wait()
	if errors.Is(err, os.ErrProcessDone) {
		err = nil
	}
	return err
}

// Page is one browser tab.
type Page struct {
	b         *Browser
	sessionID string
	errors    []string // guarded by b.mu
}

// NewPage opens a tab at url, with exceptions and console errors recorded from the start.
func (b *Browser) NewPage(ctx context.Context, url string) (*Page, error) {
	var target struct {
		TargetID string `json:"targetId"`
	}
	if err := b.Call(ctx, "", "Target.createTarget", map[string]any{"url": "about:blank"}, &target); err != nil {
		return nil, err
	}
	var session struct {
		SessionID string `json:"sessionId"`
	}
	if err := b.Call(ctx, "", "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}, &session); err != nil {
		return nil, err
	}
	p := &Page{b: b, sessionID: session.SessionID}
	b.mu.Lock()
	b.pages[p.sessionID] = p
	b.mu.Unlock()
	if err := b.Call(ctx, p.sessionID, "Runtime.enable", nil, nil); err != nil {
		return nil, err
	}
	var nav struct {
		ErrorText string `json:"errorText"`
	}
	if err := b.Call(ctx, p.sessionID, "Page.navigate", map[string]any{"url": url}, &nav); err != nil {
		return nil, err
	}
	if nav.ErrorText != "" {
		return nil, fmt.Errorf("cdp: opening %s: %s", url, nav.ErrorText)
	}
	return p, nil
}

// event records uncaught exceptions and console errors; b.mu is held.
func (p *Page) event(m message) {
	switch m.Method {
	case "Runtime.exceptionThrown":
		var e struct {
			ExceptionDetails struct {
				Text      string `json:"text"`
				URL       string `json:"url"`
				Line      int    `json:"lineNumber"`
				Exception struct {
					Description string `json:"description"`
				} `json:"exception"`
			} `json:"exceptionDetails"`
		}
		if json.Unmarshal(m.Params, &e) == nil {
			d := e.ExceptionDetails
			p.errors = append(p.errors, fmt.Sprintf("uncaught %s %s (%s:%d)", d.Text, d.Exception.Description, d.URL, d.Line+1))
		}
	case "Runtime.consoleAPICalled":
		var e struct {
			Type string `json:"type"`
			Args []struct {
				Value       any    `json:"value"`
				Description string `json:"description"`
			} `json:"args"`
		}
		if json.Unmarshal(m.Params, &e) == nil && e.Type == "error" {
			s := "console.error:"
			for _, a := range e.Args {
				if a.Value != nil {
					s += fmt.Sprint(" ", a.Value)
				} else {
					s += " " + a.Description
				}
			}
			p.errors = append(p.errors, s)
		}
	}
}

// Errors returns the page's uncaught exceptions and console errors so far.
func (p *Page) Errors() []string {
	p.b.mu.Lock()
	defer p.b.mu.Unlock()
	return append([]string(nil), p.errors...)
}

// Eval evaluates the JavaScript expression in the page, awaiting it if it is a promise, and decodes
// its value (as JSON) into result (nil to ignore it). A thrown exception is an error.
func (p *Page) Eval(ctx context.Context, expression string, result any) error {
	var r struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	params := map[string]any{"expression": expression, "awaitPromise": true, "returnByValue": true}
	if err := p.b.Call(ctx, p.sessionID, "Runtime.evaluate", params, &r); err != nil {
		return err
	}
	if e := r.ExceptionDetails; e != nil {
		return fmt.Errorf("cdp: evaluating %.80q: %s %s", expression, e.Text, e.Exception.Description)
	}
	if result == nil || len(r.Result.Value) == 0 {
		return nil
	}
	if err := json.Unmarshal(r.Result.Value, result); err != nil {
		return fmt.Errorf("cdp: value of %.80q: %w", expression, err)
	}
	return nil
}

// Screenshot returns a PNG of what the page's window shows.
func (p *Page) Screenshot(ctx context.Context) ([]byte, error) {
	var shot struct {
		Data []byte `json:"data"` // base64 in JSON, which encoding/json decodes into []byte
	}
	if err := p.b.Call(ctx, p.sessionID, "Page.captureScreenshot", map[string]any{"format": "png"}, &shot); err != nil {
		return nil, err
	}
	return shot.Data, nil
}

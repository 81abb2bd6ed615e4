package datasets

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// Argument layouts of pickle opcodes (protocols 0-5), as in CPython's pickletools.
const (
	pickleArgNone = iota
	pickleArgLine
	pickleArgTwoLines
)

// pickleFixedArgs maps opcodes with a fixed-size argument to its size in bytes.
var pickleFixedArgs = map[byte]int{
	'J': 4, 'K': 1, 'M': 2, 'G': 8, 'q': 1, 'r': 4, 'h': 1, 'j': 4,
	0x80: 1, 0x82: 1, 0x83: 2, 0x84: 4, 0x95: 8,
}

// pickleCountedArgs maps opcodes whose argument is a little-endian byte count followed by that
// many bytes to the width of the count.
var pickleCountedArgs = map[byte]int{
	'T': 4, 'U': 1, 'B': 4, 'C': 1, 'X': 4, 0x8c: 1, 0x8d: 8, 0x8e: 8, 0x96: 8, 0x8a: 1, 0x8b: 4,
}

// pickleOtherArgs maps the remaining opcodes to their layout.
var pickleOtherArgs = map[byte]int{
	'I': pickleArgLine, 'L': pickleArgLine, 'F': pickleArgLine, 'S': pickleArgLine, 'V': pickleArgLine,
	'p': pickleArgLine, 'g': pickleArgLine, 'P': pickleArgLine, 'c': pickleArgTwoLines, 'i': pickleArgTwoLines,
	'(': pickleArgNone, '.': pickleArgNone, '0': pickleArgNone, '1': pickleArgNone, '2': pickleArgNone,
	'N': pickleArgNone, 'R': pickleArgNone, 'a': pickleArgNone, 'b': pickleArgNone, 'd': pickleArgNone,
	'}': pickleArgNone, 'e': pickleArgNone, 'l': pickleArgNone, ']': pickleArgNone, 'o': pickleArgNone,
	's': pickleArgNone, 't': pickleArgNone, ')': pickleArgNone, 'u': pickleArgNone, 'Q': pickleArgNone,
	0x81: pickleArgNone, 0x85: pickleArgNone, 0x86: pickleArgNone, 0x87: pickleArgNone, 0x88: pickleArgNone,
	0x89: pickleArgNone, 0x8f: pickleArgNone, 0x90: pickleArgNone, 0x91: pickleArgNone, 0x92: pickleArgNone,
	0x93: pickleArgNone, 0x94: pickleArgNone, 0x97: pickleArgNone, 0x98: pickleArgNone,
}

// scanPickle walks the opcodes of a pickle held in memory and checks that every argument fits in
// the data and that a STOP opcode ends it. gopickle allocates a counted argument before reading it,
// so a damaged length field would otherwise make it try to allocate up to 2^64 bytes.
func scanPickle(data []byte) error {
	for pos := 0; pos < len(data); {
		op := data[pos]
		pos++
		if op == '.' {
			return nil
		}
		if n, ok := pickleFixedArgs[op]; ok {
			if pos+n > len(data) {
				return fmt.Errorf("opcode 0x%02x at byte %d needs %d argument bytes, the data ends first", op, pos-1, n)
			}
			if op == 0x95 { // FRAME: its length must also fit.
				if size := binary.LittleEndian.Uint64(data[pos:]); size > uint64(len(data)-pos-n) {
					return fmt.Errorf("frame at byte %d announces %d bytes, only %d remain", pos-1, size, len(data)-pos-n)
				}
			}
			pos += n
			continue
		}
		if width, ok := pickleCountedArgs[op]; ok {
			if pos+width > len(data) {
				return fmt.Errorf("opcode 0x%02x at byte %d: truncated length", op, pos-1)
			}
			var count uint64
			for i := width - 1; i >= 0; i-- {
				count = count<<8 | uint64(data[pos+i])
			}
			if width == 4 && (op == 'T' || op == 0x8b) && count >= 1<<31 {
				return fmt.Errorf("opcode 0x%02x at byte %d has a negative length", op, pos-1)
			}
			pos += width
			if count > uint64(len(data)-pos) {
				return fmt.Errorf("opcode 0x%02x at byte %d announces %d bytes, only %d remain", op, pos-1-width, count, len(data)-pos)
			}
			pos += int(count)
			continue
		}
		layout, ok := pickleOtherArgs[op]
		if !ok {
			return fmt.Errorf("unknown opcode 0x%02x at byte %d", op, pos-1)
		}
		for range layout {
			nl := bytes.IndexByte(data[pos:], '\n')
			if nl < 0 {
				return fmt.Errorf("opcode %q at byte %d: unterminated line argument", op, pos-1)
			}
			pos += nl + 1
		}
	}
	return fmt.Errorf("no STOP opcode: the pickle is truncated")
}

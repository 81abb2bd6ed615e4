package main

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/geomix-go/geomix/viz"
)

func TestFreezeDrawsChartsAsPNG(t *testing.T) {
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("no chromium on PATH: `apt-get install -y chromium` to draw charts")
	}
	chart, err := viz.Bars{Title: "demo", Categories: []string{"a", "b"}, Series: []viz.BarSeries{{Name: "s", Values: []float64{1, -2}}}}.Chart()
	if err != nil {
		t.Fatal(err)
	}
	page, err := chart.HTML()
	if err != nil {
		t.Fatal(err)
	}
	in, err := json.Marshal(map[string]any{"nbformat": 4, "nbformat_minor": 5, "metadata": map[string]any{}, "cells": []any{
		map[string]any{"cell_type": "markdown", "metadata": map[string]any{}, "source": "# <b>title</b>"},
		map[string]any{"cell_type": "code", "execution_count": 1, "source": "%%", "metadata": map[string]any{"execution": map[string]any{"shell.execute_reply": "2026-01-01"}},
			"outputs": []any{
				map[string]any{"output_type": "stream", "name": "stderr", "text": "progress\r"},
				map[string]any{"output_type": "stream", "name": "stdout", "text": []string{"value 1\n"}},
				map[string]any{"output_type": "display_data", "metadata": map[string]any{}, "data": map[string]any{"text/html": string(page)}},
			}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	out, charts, err := Freeze(in, chromium, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if charts != 1 {
		t.Fatalf("%d charts drawn, want 1", charts)
	}
	if !strings.Contains(string(out), "# <b>title</b>") {
		t.Error("HTML in the notebook was escaped")
	}
	var nb struct {
		Cells []struct {
			Metadata map[string]any `json:"metadata"`
			Outputs  []struct {
				OutputType string            `json:"output_type"`
				Name       string            `json:"name"`
				Data       map[string]string `json:"data"`
			} `json:"outputs"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(out, &nb); err != nil {
		t.Fatal(err)
	}
	code := nb.Cells[1]
	if _, ok := code.Metadata["execution"]; ok {
		t.Error("execution timestamps kept")
	}
	if len(code.Outputs) != 2 || code.Outputs[0].Name != "stdout" {
		t.Fatalf("outputs %+v, want stdout and the image (stderr dropped)", code.Outputs)
	}
	img := code.Outputs[1].Data
	if img["text/plain"] != "chart: demo" || img["text/html"] != "" {
		t.Errorf("image output data %q, want the PNG and its title only", img["text/plain"])
	}
	png, err := base64.StdEncoding.DecodeString(img["image/png"])
	if err != nil || len(png) < 24 || string(png[1:4]) != "PNG" {
		t.Fatalf("not a PNG (%v)", err)
	}
	// The IHDR chunk: the chart's size, 900 × 500 pixels.
	if w, h := binary.BigEndian.Uint32(png[16:20]), binary.BigEndian.Uint32(png[20:24]); w != 900 || h != 500 {
		t.Errorf("image of %d x %d pixels, want 900 x 500", w, h)
	}
}

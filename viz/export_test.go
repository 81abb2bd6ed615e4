package viz

// Body exposes the chart's element and script, given its element id, to the tests of package viz_test.
func (c *Chart) Body(elementID string) string { return c.body(elementID) }

// HTML exposes the slider's box, given its DOM id, to the tests of package viz_test.
func (s Slider[T]) HTML(id string) (string, error) { return s.html(id) }

// Output exposes the chart's notebook output, given its element id, to the tests of package viz_test.
func (c *Chart) Output(elementID string) (string, error) { return c.output(elementID) }

package viz

// Body exposes the chart's element and script, given its element id, to the tests of package viz_test.
func (c *Chart) Body(elementID string) string { return c.body(elementID) }

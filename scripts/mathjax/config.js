// MathJax 3 for the HTML exports of scripts/notebooks.sh: nbconvert's template loads this file as its
// MathJax URL (with a MathJax 2 configuration that MathJax 3 ignores). It configures the TeX input the
// notebooks' Markdown uses ($...$ and $$...$$) and loads tex-svg-full.js from the same folder (SVG
// output: no web fonts, so it renders from file:// too).
window.MathJax = {
  tex: {inlineMath: [['$', '$'], ['\\(', '\\)']], displayMath: [['$$', '$$'], ['\\[', '\\]']], processEscapes: true},
  svg: {fontCache: 'global'}
};
(function () {
  var s = document.createElement('script');
  s.src = document.currentScript.src.replace(/[^\/]*$/, 'tex-svg-full.js');
  s.async = true;
  document.head.appendChild(s);
})();

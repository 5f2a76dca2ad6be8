// A MathJax 2 that typesets nothing, loaded by Voilà's MathJax 2 typesetter in place of
// MathJax (the throne template names it as the page's fullMathjaxUrl). No dashboard shows
// math, but ipywidgets typesets every label and description, so Voilà's default MathJax 3
// was fetched (~0.5 MB of chunks) and run over each widget's text on every page load; a
// "$" in a card text would have been taken for TeX. The typesetter calls exactly these.
window.MathJax = {
  Hub: {
    Config() {},
    Configured() {},
    Queue() {},
    Register: { StartupHook() {} },
  },
  Ajax: {},
  InputJax: { TeX: { resetEquationNumbers() {} } },
};

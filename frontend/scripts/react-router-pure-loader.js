// react-router's build makes its components and contexts at module level (`var NavLink = React.forwardRef(...)`,
// `NavLink.displayName = "NavLink"`). A minifier has to assume such a call or assignment has effects, so every
// component the site never renders (NavLink, Form, ScrollRestoration, HistoryRouter...) stayed in the first
// download with everything it calls. Marking the calls pure and leaving out the display names (read only by
// React DevTools) lets tree shaking drop them. Fails the build when the file no longer looks like this, so a
// react-router upgrade cannot quietly bring the bytes back.
/** @type {import('webpack').LoaderDefinitionFunction} */
module.exports = function reactRouterPureLoader(source) {
  let marked = 0;
  let dropped = 0;
  const out = source
    .replace(/^(var \w+ = )(React\d*\.(?:forwardRef|memo|createContext)\()/gm, (_, head, call) => {
      marked += 1;
      return `${head}/* @__PURE__ */ ${call}`;
    })
    .replace(/^\w+\.displayName = "[^"\n]*";$/gm, () => {
      dropped += 1;
      return '';
    });
  // A chunk that makes components but in which nothing matched: the build's shape changed.
  if (/React\d*\.forwardRef\(/.test(source) && (marked === 0 || dropped === 0)) {
    throw new Error(`react-router-pure-loader: nothing to mark in ${this.resourcePath}; review the loader`);
  }
  return out;
};

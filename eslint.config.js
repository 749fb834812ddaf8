// ESLint flat config: the recommended rules over the page modules (browser globals) and
// their Node unit tests (node globals). The vendored Socket.IO client is not ours to lint.
import js from "@eslint/js";
import globals from "globals";

export default [
  {
    ignores: [
      "static/vendor/**", "node_modules/**", "docs/_build/**", ".venv/**", "build/**",
      "test-artifacts/**",
    ],
  },
  js.configs.recommended,
  {
    files: ["static/js/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: globals.browser,
    },
  },
  {
    files: ["templates/sw.js"], // the service worker: a classic script, its settings prepended
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "script",
      globals: globals.serviceworker,
    },
  },
  {
    files: ["tests/js/**/*.js", "eslint.config.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.node },
    },
  },
];

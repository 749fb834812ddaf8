// The language control (every page's top bar): English or Simplified Chinese. The choice
// is kept in a cookie, as the theme's is; the server renders every page in it, so a
// choice reloads the page (its URL keeps the puzzle and the moves made).

const COOKIE = "arcade_lang";
const YEAR = 365 * 24 * 3600;

const control = document.querySelector('[data-testid="language"]');
if (control) {
  control.addEventListener("change", () => {
    document.cookie = `${COOKIE}=${control.value}; Path=/; Max-Age=${YEAR}; SameSite=Lax`;
    window.location.reload();
  });
}

// The theme control (every page's top bar): light, dark or the system's. The choice
// is kept in a cookie, so the server writes it on <html data-theme> before the first
// paint; with "Auto" the stylesheet follows the system by itself and this module
// names the theme shown on <html data-theme>, following the system as it changes.

const COOKIE = "arcade_theme";
const CHOICES = ["system", "light", "dark"];
const YEAR = 365 * 24 * 3600;
const systemDark = window.matchMedia("(prefers-color-scheme: dark)");

/** The kept choice ("system" when none or unreadable). */
export function chosenTheme() {
  const match = document.cookie.match(/(?:^|;\s*)arcade_theme=([a-z]+)/);
  return match && CHOICES.includes(match[1]) ? match[1] : "system";
}

/** The theme a choice shows: "light" or "dark". */
export function shownTheme(choice) {
  if (choice === "light" || choice === "dark") return choice;
  return systemDark.matches ? "dark" : "light";
}

function show(choice) {
  document.documentElement.dataset.theme = shownTheme(choice);
}

function choose(choice) {
  const value = CHOICES.includes(choice) ? choice : "system";
  document.cookie = `${COOKIE}=${value}; Path=/; Max-Age=${YEAR}; SameSite=Lax`;
  show(value);
}

const control = document.querySelector('[data-testid="theme"]');
if (control) {
  control.value = chosenTheme();
  control.addEventListener("change", () => choose(control.value));
}
systemDark.addEventListener("change", () => show(chosenTheme()));
show(chosenTheme());

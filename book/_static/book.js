// A link to a claim line (the claims ledger links to each) opens the folded
// "Claim checks" box that holds it (book/_ext/claim_checks.py).
function openFoldsOfTarget() {
  const id = decodeURIComponent(window.location.hash.slice(1));
  const target = id && document.getElementById(id);
  for (let e = target; e; e = e.parentElement) {
    if (e.tagName === "DETAILS") e.open = true;
  }
  if (target) target.scrollIntoView();
}
window.addEventListener("hashchange", openFoldsOfTarget);
document.addEventListener("DOMContentLoaded", openFoldsOfTarget);

// The contents button of the article header (shown below 1600 px, book.css) opens the
// "On this page" drawer: the theme only wires up its navbar's button, which this book's
// layout never shows, so a click is passed on to it.
document.addEventListener("DOMContentLoaded", () => {
  const wired = document.querySelector(".secondary-toggle");
  document.querySelectorAll(".bd-header-article .secondary-toggle").forEach((button) => {
    if (button === wired) return;
    button.addEventListener("click", (event) => {
      event.preventDefault();
      wired.click();
    });
  });
});

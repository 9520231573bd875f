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

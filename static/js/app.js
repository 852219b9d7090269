// Site-wide behaviour, loaded by base.html (the Content-Security-Policy allows no inline script).
(function () {
  "use strict";
  var language = document.getElementById("language-select");
  if (language) {
    language.addEventListener("change", function () { language.form.submit(); });
  }
})();

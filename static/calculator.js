// Calculator forms: − / + steppers, a box's number selected when it takes the focus (typing replaces it),
// fields shown only when they apply, cards added and removed one by one, what a later plan changes in
// bold, and the inputs last calculated with offered back (filled in again only on Back from the answer,
// never unasked). Without this script every field is shown and the boxes take typing.
(function () {
  "use strict";
  var form = document.getElementById("calc-form");
  if (!form) return;
  var nextStep = document.querySelector("form.next-step");  // a result's next round: its steppers too

  // --- errors: the list at the top takes the focus, so it is read out; a link in it goes to the
  // field with its label in view and puts the cursor in the box
  var summary = document.querySelector("[data-error-summary]");
  if (summary) {
    summary.focus();
    summary.addEventListener("click", function (e) {
      var link = e.target.closest("a[href^='#']");
      var control = link && document.getElementById(link.hash.slice(1));
      if (!control) return;
      e.preventDefault();
      var fold = control.closest("details");
      if (fold) fold.open = true;  // a folded option opens to show its box
      // a card's box shows under the card's own heading
      (control.closest("[data-record]") || control.closest(".field, fieldset") || control).scrollIntoView();
      control.focus({ preventScroll: true });
    });
  }

  // --- steppers: the buttons and the arrow keys move the number within its bounds. An empty box steps
  // from the number a blank stands for (data-empty: "Blank: 0"), else from the example it shows; a box
  // that may be left blank (data-blank: blank has its own meaning) empties below its minimum, and
  // without an example starts there.
  function number(text) {
    text = (text || "").trim();
    return /^[-+]?\d+$/.test(text) ? parseInt(text, 10) : NaN;
  }

  function step(input, by) {
    var low = parseInt(input.dataset.min, 10), high = parseInt(input.dataset.max, 10);
    var value = number(input.value);
    var mayBeBlank = input.hasAttribute("data-blank");
    if (isNaN(value) && !isNaN(number(input.dataset.empty))) {
      input.value = String(Math.min(high, Math.max(low, number(input.dataset.empty) + by)));
    } else if (isNaN(value) && !isNaN(number(input.dataset.example))) {
      input.value = String(Math.min(high, Math.max(low, number(input.dataset.example) + by)));
    } else if (mayBeBlank && (isNaN(value) ? by < 0 : value + by < low)) {
      input.value = "";
    } else {
      if (isNaN(value)) value = mayBeBlank ? low - by : Math.min(high, Math.max(low, 0));  // else from 0
      input.value = String(Math.min(high, Math.max(low, value + by)));
    }
    input.dispatchEvent(new Event("change", { bubbles: true }));
  }

  function enhanceSteppers(root) {
    Array.prototype.forEach.call(root.querySelectorAll("[data-stepper]"), function (box) {
      var input = box.querySelector("input");
      Array.prototype.forEach.call(box.querySelectorAll("[data-step]"), function (button) {
        button.hidden = false;
        button.addEventListener("click", function () { step(input, parseInt(button.dataset.step, 10)); });
      });
      input.addEventListener("keydown", function (e) {
        if (e.key === "ArrowUp" || e.key === "ArrowDown") { e.preventDefault(); step(input, e.key === "ArrowUp" ? 1 : -1); }
      });
    });
  }

  // --- a box's number is selected when it takes the focus, so typing replaces it (a tap that focuses
  // the box would otherwise put the caret where it landed)
  var focused = null;
  form.addEventListener("focusin", function (e) {
    var box = e.target;
    if (!box.matches("input[type=text]")) return;
    focused = box;
    box.select();
    // once more after the tap that focused it has landed, unless typing has begun
    setTimeout(function () { if (focused === box && document.activeElement === box) box.select(); }, 0);
  });
  form.addEventListener("mouseup", function (e) {
    if (e.target === focused) e.preventDefault();
  });
  form.addEventListener("keydown", function () { focused = null; });
  form.addEventListener("input", function () { focused = null; });
  if (nextStep) {
    enhanceSteppers(nextStep);
    nextStep.addEventListener("focusin", function (e) { if (e.target.matches("input[type=text]")) e.target.select(); });
  }

  // --- fields shown only when another field has a given value
  // a field hidden because it does not apply reads as blank, so the fields that hang on it hide too
  function valueOf(name) {
    var controls = form.querySelectorAll('[name="' + name + '"]:not(:disabled)');
    if (!controls.length) return "";
    var first = controls[0];
    if (first.type === "radio") {
      var checked = form.querySelector('[name="' + name + '"]:checked:not(:disabled)');
      return checked ? checked.value : "";
    }
    if (first.type === "checkbox") return first.checked ? "true" : "false";
    return first.value.trim();
  }

  function holds(condition) {
    var value = valueOf(condition.field);
    // a blank box that counts as 0 reads as 0
    if (value === "" && condition.other_than.indexOf("") === -1 && condition.values.indexOf("") === -1) value = "0";
    return condition.other_than.length ? condition.other_than.indexOf(value) === -1 : condition.values.indexOf(value) !== -1;
  }

  function applyConditions() {
    Array.prototype.forEach.call(form.querySelectorAll("[data-shown-when]"), function (element) {
      var conditions = JSON.parse(element.getAttribute("data-shown-when"));
      var shown = conditions.some(holds) || !!element.querySelector(".field-error, [aria-invalid='true']");
      element.hidden = !shown;
      // a hidden field sends nothing, so it is read as blank: it does not apply
      Array.prototype.forEach.call(element.querySelectorAll("input, select"), function (control) {
        control.disabled = !shown;
      });
    });
  }

  // --- records: add a blank one, remove one (a removed record is left blank, which the server skips)
  function renumber(list) {
    var shown = 0;
    Array.prototype.forEach.call(list.querySelectorAll("[data-record]"), function (record) {
      if (record.hidden) return;
      shown += 1;
      var label = record.querySelector("[data-record-number]");
      label.textContent = label.textContent.replace(/\d+$/, String(shown));
    });
  }

  function enhanceRecord(record, list) {
    var remove = record.querySelector("[data-remove-record]");
    remove.hidden = false;
    remove.addEventListener("click", function () {
      Array.prototype.forEach.call(record.querySelectorAll("input"), function (control) {
        if (control.type === "checkbox") control.checked = false; else control.value = "";
      });
      record.hidden = true;
      renumber(list);
      // focus stays where the card was: on the next card's (else the one before's) Remove button, which
      // opens no keyboard and does not move the page; with no card left, on Add
      var shown = function (other) { return other.matches("[data-record]") && !other.hidden; };
      var near = record.nextElementSibling, back = record.previousElementSibling;
      while (near && !shown(near)) near = near.nextElementSibling;
      while (!near && back && !shown(back)) back = back.previousElementSibling;
      var target = near || back;
      (target ? target.querySelector("[data-remove-record]") : list.parentNode.querySelector("[data-add-record]")).focus();
    });
    enhanceSteppers(record);
  }

  Array.prototype.forEach.call(form.querySelectorAll("[data-records]"), function (box) {
    var list = box.querySelector("[data-record-list]");
    var template = box.querySelector("[data-record-template]");
    var add = box.querySelector("[data-add-record]");
    var most = parseInt(box.dataset.max, 10);
    Array.prototype.forEach.call(list.querySelectorAll("[data-record]"), function (record) { enhanceRecord(record, list); });
    add.hidden = false;
    add.addEventListener("click", function () {
      var records = list.querySelectorAll("[data-record]");
      if (list.querySelectorAll("[data-record]:not([hidden])").length >= most) return;
      var number = records.length + 1;
      var holder = document.createElement("div");
      holder.innerHTML = template.innerHTML.replace(/__n__/g, String(number));
      var record = holder.firstElementChild;
      list.appendChild(record);
      enhanceRecord(record, list);
      renumber(list);
      record.querySelector("input").focus();
    });
  });

  // rows added by the script carry their own steppers; the others are wired here
  Array.prototype.forEach.call(form.querySelectorAll("[data-stepper]"), function (box) {
    if (!box.closest("[data-record]")) enhanceSteppers(box.parentNode);
  });
  form.addEventListener("change", applyConditions);
  form.addEventListener("input", applyConditions);
  applyConditions();

  // --- plans side by side: a later plan's fields that differ from the first plan's are in bold
  var plans = form.querySelectorAll(".plan-inputs");
  function sent(name) {
    return Array.prototype.map.call(form.querySelectorAll('[name="' + name + '"]'), function (control) {
      return (control.type === "radio" || control.type === "checkbox") ? (control.checked ? control.value : "") : control.value.trim();
    }).join("\n");
  }
  function markChanges() {
    Array.prototype.forEach.call(plans, function (plan, index) {
      if (!index) return;
      var prefix = plan.id.slice(-1) + "-";
      Array.prototype.forEach.call(plan.querySelectorAll(".field"), function (field) {
        var control = field.querySelector("[name^='" + prefix + "']");
        if (!control || control.name === prefix + "plan") return;
        field.classList.toggle("changed", sent(control.name) !== sent(control.name.slice(prefix.length)));
      });
    });
  }
  if (plans.length > 1) {
    form.addEventListener("input", markChanges);
    form.addEventListener("change", markChanges);
  }

  // --- the inputs this browser last calculated with: kept for each calculator, offered back on its
  // empty form with a line that says so, and forgotten on Clear
  var key = "redbook.last-inputs:" + location.pathname;
  function remembered(value) {
    try {
      if (value === undefined) return localStorage.getItem(key);
      if (value === null) localStorage.removeItem(key); else localStorage.setItem(key, value);
    } catch (error) { return null; }  // storage refused (a private window): nothing is remembered
    return null;
  }
  if (document.querySelector("section.result") && !summary && location.search) remembered(location.search);
  var offer = form.querySelector("[data-last-inputs]");
  var last = offer && remembered();
  if (last) {
    offer.querySelector("[data-last-link]").href = location.pathname + last;
    offer.hidden = false;
    offer.querySelector("[data-last-clear]").addEventListener("click", function () {
      remembered(null);
      offer.hidden = true;
    });
  }

  // --- Back from an answer to its empty form puts back what was typed, as a browser puts a form back
  // (it does not for boxes that take no autocomplete): only on Back, and only when every input has its
  // box here (not for a second plan or a card the script would have to add)
  function boxesNamed(name) { return form.querySelectorAll('[name="' + CSS.escape(name) + '"]'); }
  function isChoice(box) { return box.type === "radio" || box.type === "checkbox"; }
  function putBack(query) {
    var pairs = Array.from(new URLSearchParams(query));
    var counts = {}, named = {};  // name -> how many values it has (several fill its boxes in order), its boxes
    pairs.forEach(function (pair) {
      counts[pair[0]] = (counts[pair[0]] || 0) + 1;
      named[pair[0]] = named[pair[0]] || boxesNamed(pair[0]);
    });
    var fits = Object.keys(counts).every(function (name) {
      var boxes = named[name];
      return boxes.length > 0 && (isChoice(boxes[0]) || counts[name] <= boxes.length);
    });
    if (!fits) return;
    var filled = {};
    pairs.forEach(function (pair) {
      var boxes = named[pair[0]];
      if (isChoice(boxes[0])) {
        Array.prototype.forEach.call(boxes, function (box) { if (box.value === pair[1]) box.checked = true; });
      } else {
        filled[pair[0]] = (filled[pair[0]] || 0) + 1;
        boxes[filled[pair[0]] - 1].value = pair[1];
      }
    });
    applyConditions();
  }
  var arrival = window.performance && performance.getEntriesByType ? performance.getEntriesByType("navigation")[0] : null;
  if (last && !location.search && arrival && arrival.type === "back_forward") putBack(last);
})();

"""The forms and links of a served page, read with Python's own HTML parser, so the raw HTTP
checks can send exactly what the page's forms would send (and then leave a part out).

A control is found by its visible label, as a person finds it: `<label for=ID>` or a label
around the control; the label's own text (the control's options left out) must be the name.
"""

import html.parser
import urllib.parse

CONTROLS = {"input", "select", "textarea", "button"}


class Form:
    def __init__(self, attrs):
        self.id = attrs.get("id")
        self.action = attrs.get("action") or ""
        self.method = (attrs.get("method") or "get").lower()
        self.enctype = attrs.get("enctype") or "application/x-www-form-urlencoded"
        self.controls = []  # dicts: tag, name, type, value, id, options, text, selected
        self.labels = []  # (text, for-id or None, wrapped control or None)

    def submits(self):
        return [c for c in self.controls
                if (c["tag"] == "button" and c["type"] in ("submit", "")) or (c["tag"] == "input" and c["type"] == "submit")]

    def submit_names(self):
        return [(c["text"] if c["tag"] == "button" else c["value"]).strip() for c in self.submits()]

    def hidden(self):
        return [c for c in self.controls if c["tag"] == "input" and c["type"] == "hidden" and c["name"]]

    def control(self, label):
        """The control labelled `label` (exactly; else a label that starts with it and a space)."""
        for exact in (True, False):
            for text, target, wrapped in self.labels:
                if text == label or (not exact and text.startswith(label + " ")):
                    if wrapped is not None:
                        if any(wrapped is c for c in self.controls):
                            return wrapped
                        continue
                    for control in self.controls:
                        if target and control["id"] == target:
                            return control
        return None

    def defaults(self):
        """What the form sends untouched: each named control's value (the selected option, checked boxes)."""
        values = []
        for c in self.controls:
            if not c["name"] or c["tag"] == "button" or c["type"] in ("submit", "button", "reset", "file", "image"):
                continue
            if c["type"] in ("checkbox", "radio") and not c["checked"]:
                continue
            if c["tag"] == "select":
                chosen = [value for value, _, selected in c["options"] if selected] or [o[0] for o in c["options"][:1]]
                values += [(c["name"], value) for value in chosen]
            else:
                values.append((c["name"], c["value"]))
        return values


class Page(html.parser.HTMLParser):
    """Forms, links, scripts and every element's attributes of one HTML page."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.forms, self.links, self.scripts, self.elements = [], [], [], []
        self.form = None
        self.label_stack = []  # [text, for, wrapped control]
        self.link = None
        self.button = None
        self.option = None
        self.select = None
        self.textarea = None
        self.in_script = False
        self.text_parts = []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        attrs = {k: (v if v is not None else "") for k, v in attrs}
        self.elements.append((tag, attrs))
        if tag == "form":
            self.form = Form(attrs)
            self.forms.append(self.form)
        elif tag == "a":
            self.link = [attrs.get("href"), ""]
            self.links.append(self.link)
        elif tag == "script":
            self.scripts.append(attrs)
            self.in_script = True
        elif tag == "label":
            self.label_stack.append([" ", attrs.get("for"), None])
        if tag in CONTROLS or tag == "option":
            self._control(tag, attrs)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in ("input",):
            self.handle_endtag(tag)

    def _control(self, tag, attrs):
        if tag == "option":
            if self.select is not None:
                self.option = [attrs.get("value"), "", "selected" in attrs]
                self.select["options"].append(self.option)
            return
        control = {"tag": tag, "name": attrs.get("name", ""), "type": attrs.get("type", "submit" if tag == "button" else "").lower(),
                   "value": attrs.get("value", ""), "id": attrs.get("id"), "options": [], "text": "",
                   "checked": "checked" in attrs, "attrs": attrs}
        form_id = attrs.get("form")
        owner = next((f for f in self.forms if form_id and f.id == form_id), None) or self.form
        if owner is not None:
            owner.controls.append(control)
        if self.label_stack and self.label_stack[-1][2] is None:
            self.label_stack[-1][2] = control
        if tag == "select":
            self.select = control
        elif tag == "button":
            self.button = control
        elif tag == "textarea":
            self.textarea = control

    def handle_endtag(self, tag):
        if tag == "form":
            self.form = None
        elif tag == "a":
            self.link = None
        elif tag == "script":
            self.in_script = False
        elif tag == "label" and self.label_stack:
            text, target, wrapped = self.label_stack.pop()
            label = (" ".join(text.split()), target, wrapped)
            for form in self.forms:
                form.labels.append(label)
        elif tag == "select":
            if self.select is not None:
                for option in self.select["options"]:
                    if option[0] is None:
                        option[0] = " ".join(option[1].split())
            self.select = None
        elif tag == "option":
            self.option = None
        elif tag == "button":
            self.button = None
        elif tag == "textarea":
            self.textarea = None

    def handle_data(self, data):
        if self.in_script:
            return
        self.text_parts.append(data)
        if self.link is not None:
            self.link[1] += data
        if self.option is not None:
            self.option[1] += data
            return
        if self.button is not None:
            self.button["text"] += data
        if self.textarea is not None:
            self.textarea["value"] += data
            return
        if self.label_stack and self.select is None:
            self.label_stack[-1][0] += data

    def text(self):
        return " ".join("".join(self.text_parts).split())

    def form_with_submit(self, name):
        return next((f for f in self.forms if name in f.submit_names()), None)

    def forms_with_submit(self, name):
        return [f for f in self.forms if name in f.submit_names()]

    def link_named(self, predicate):
        for href, text in self.links:
            if href is not None and predicate(" ".join(text.split())):
                return href
        return None


def encode(values):
    return urllib.parse.urlencode(values).encode()

// @ts-check
// Generated from gameweave_museum/symbols.py: do not edit by hand.
// python -m gameweave_museum.symbols gameweave_museum/gameweave_museum/web/symbols.js
export const SYMBOLS = {
  "squares": [
    {
      "kind": "guard",
      "glyph": "G1",
      "name": "guard",
      "colour": "#c92a2a",
      "meaning": "A guard, with its number; it sees along its row and column."
    },
    {
      "kind": "thief",
      "glyph": "@",
      "name": "Thief",
      "colour": "#ae3ec9",
      "meaning": "The Thief: on the Thief's own screen, and everyone's once the night is over."
    },
    {
      "kind": "last_seen",
      "glyph": "?",
      "name": "last seen",
      "colour": "#e8a400",
      "meaning": "Where Security last saw the Thief."
    },
    {
      "kind": "vault",
      "glyph": "V",
      "name": "vault case",
      "colour": "#c9a227",
      "meaning": "A vault case holding a crown; the North breaker powers its alarm."
    },
    {
      "kind": "case",
      "glyph": "C",
      "name": "showcase",
      "colour": "#1c7ed6",
      "meaning": "A display case, with the value of its piece."
    },
    {
      "kind": "empty",
      "glyph": "x",
      "name": "empty frame",
      "colour": "#e03131",
      "meaning": "A case found empty."
    },
    {
      "kind": "camera",
      "glyph": "c1",
      "name": "camera",
      "colour": "#0c8599",
      "meaning": "A camera, with its number; it watches up to five squares along its row and column."
    },
    {
      "kind": "watched",
      "glyph": "+",
      "name": "watched now",
      "colour": "#f08c00",
      "meaning": "A square the monitors watch now (a guard is in the Office)."
    },
    {
      "kind": "breaker",
      "glyph": "B",
      "name": "breaker",
      "colour": "#b08900",
      "meaning": "A wing's breaker: cut, it blinds that wing's cameras."
    },
    {
      "kind": "post",
      "glyph": "P",
      "name": "guard post",
      "colour": "#2f9e44",
      "meaning": "A guard post, where the guards start."
    },
    {
      "kind": "door",
      "glyph": "D",
      "name": "door",
      "colour": "#37b24d",
      "meaning": "An exit: a door."
    },
    {
      "kind": "window",
      "glyph": "W",
      "name": "window",
      "colour": "#37b24d",
      "meaning": "An exit: a window."
    },
    {
      "kind": "skylight",
      "glyph": "S",
      "name": "skylight",
      "colour": "#37b24d",
      "meaning": "An exit: the skylight."
    },
    {
      "kind": "office",
      "glyph": "::",
      "name": "Office",
      "colour": "#4263eb",
      "meaning": "The Security Office: a guard here watches the monitors."
    },
    {
      "kind": "wall",
      "glyph": "##",
      "name": "wall",
      "colour": "#495057",
      "meaning": "A wall: nobody walks through it or sees past it."
    }
  ],
  "evidence": [
    {
      "kind": "last_seen",
      "glyph": "?",
      "name": "Thief seen",
      "colour": "#e8a400",
      "meaning": "The Thief was spotted here."
    },
    {
      "kind": "empty_frame",
      "glyph": "x",
      "name": "empty case found",
      "colour": "#e03131",
      "meaning": "A case here was found empty."
    },
    {
      "kind": "cut_camera",
      "glyph": "/",
      "name": "cut camera found",
      "colour": "#e03131",
      "meaning": "The camera here was found cut."
    },
    {
      "kind": "dark",
      "glyph": "~",
      "name": "wing found dark",
      "colour": "#e03131",
      "meaning": "This breaker was found cut: its wing went dark."
    },
    {
      "kind": "forced_exit",
      "glyph": "!",
      "name": "forced exit found",
      "colour": "#e03131",
      "meaning": "This exit was found forced open."
    },
    {
      "kind": "alarm",
      "glyph": "*",
      "name": "alarm",
      "colour": "#e03131",
      "meaning": "The vault alarm went off here."
    }
  ],
  "wings": {
    "North": "#e9e2f5",
    "West": "#e2eef7",
    "South": "#f6ead9",
    "East": "#e0f2e6",
    "Court": "#f4f1dc"
  }
};

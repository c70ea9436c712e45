/**
 * The style every template shares. Colours, fonts, radii and borders come from the MCP
 * Apps theme variables the host passes in `hostContext.styles.variables` (the bridge sets
 * them on the root element, which overrides these fallbacks); `light-dark()` follows the
 * host's `theme` through `color-scheme`.
 */
export const BASE_STYLE = `
:root {
  color-scheme: light dark;
  --color-background-primary: light-dark(#ffffff, #1b1b1b);
  --color-background-secondary: light-dark(#f4f4f5, #262626);
  --color-background-tertiary: light-dark(#e9e9ec, #303030);
  --color-background-info: light-dark(#e6f0fb, #13304f);
  --color-background-danger: light-dark(#fdecec, #4a1919);
  --color-background-success: light-dark(#e7f6ec, #15391f);
  --color-background-warning: light-dark(#fdf5e1, #433512);
  --color-background-inverse: light-dark(#1b1b1b, #fafafa);
  --color-text-primary: light-dark(#1b1b1b, #f2f2f2);
  --color-text-secondary: light-dark(#52525b, #b4b4bb);
  --color-text-tertiary: light-dark(#8a8a93, #85858d);
  --color-text-inverse: light-dark(#ffffff, #111111);
  --color-text-info: light-dark(#0b5cad, #7db7f0);
  --color-text-danger: light-dark(#b42318, #f59a92);
  --color-text-success: light-dark(#1d7a3a, #7fd39a);
  --color-text-warning: light-dark(#8a5a00, #f0c36b);
  --color-border-primary: light-dark(#d4d4d8, #3f3f46);
  --color-border-secondary: light-dark(#e4e4e7, #333338);
  --color-ring-primary: light-dark(#0b5cad66, #7db7f066);
  --font-sans: system-ui, -apple-system, "Segoe UI", sans-serif;
  --font-mono: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace;
  --font-weight-normal: 400;
  --font-weight-medium: 500;
  --font-weight-semibold: 600;
  --font-text-xs-size: 11px;
  --font-text-sm-size: 13px;
  --font-text-md-size: 14px;
  --font-heading-md-size: 18px;
  --border-radius-sm: 4px;
  --border-radius-md: 6px;
  --border-radius-lg: 8px;
  --border-radius-full: 9999px;
  --border-width-regular: 1px;
  --shadow-sm: 0 1px 3px rgba(0, 0, 0, 0.12);
}
*, *::before, *::after { box-sizing: border-box; }
html, body { margin: 0; }
body {
  padding: 16px;
  font-family: var(--font-sans);
  font-size: var(--font-text-md-size);
  line-height: 1.5;
  color: var(--color-text-primary);
  background: var(--color-background-primary);
}
h2 { margin: 0 0 12px; font-size: var(--font-heading-md-size); font-weight: var(--font-weight-semibold); }
p.lead { margin: 0 0 12px; color: var(--color-text-secondary); }
label { display: block; margin-bottom: 4px; font-size: var(--font-text-sm-size);
  font-weight: var(--font-weight-medium); color: var(--color-text-secondary); }
input, select, textarea {
  width: 100%; padding: 7px 10px; font: inherit; color: inherit;
  background: var(--color-background-primary);
  border: var(--border-width-regular) solid var(--color-border-primary);
  border-radius: var(--border-radius-md);
}
input[type="checkbox"] { width: auto; }
input:focus-visible, select:focus-visible, textarea:focus-visible, button:focus-visible {
  outline: 2px solid var(--color-ring-primary); outline-offset: 1px;
}
button {
  padding: 7px 14px; font: inherit; font-weight: var(--font-weight-medium); cursor: pointer;
  color: var(--color-text-primary); background: var(--color-background-secondary);
  border: var(--border-width-regular) solid var(--color-border-primary); border-radius: var(--border-radius-md);
}
button.primary { color: var(--color-text-inverse); background: var(--color-background-inverse);
  border-color: transparent; }
button.active { background: var(--color-background-info); color: var(--color-text-info); }
button:disabled { opacity: 0.55; cursor: not-allowed; }
table { width: 100%; border-collapse: collapse; font-size: var(--font-text-sm-size); }
th, td { padding: 7px 10px; text-align: left;
  border-bottom: var(--border-width-regular) solid var(--color-border-secondary); vertical-align: top; }
th { color: var(--color-text-secondary); background: var(--color-background-secondary);
  font-weight: var(--font-weight-semibold); }
.message { margin: 0 0 12px; padding: 8px 12px; border-radius: var(--border-radius-md); }
.message.success { color: var(--color-text-success); background: var(--color-background-success); }
.message.error { color: var(--color-text-danger); background: var(--color-background-danger); }
.muted { color: var(--color-text-tertiary); }
.hidden { display: none !important; }
.row { display: flex; gap: 8px; align-items: center; }
.spacer { flex: 1; }
`;

// Imported first by main.ts: installs the filter before any other module is evaluated.
import { dropIgnoredNoColorWarning } from './color-warning.js';

dropIgnoredNoColorWarning();

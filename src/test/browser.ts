// Setup for component tests in real Chromium: the app's global styles and theme, and no element
// where HTML does not allow it.
import '../ui/styles.css';
import { applyTheme } from '../ui/theme';
import './misplacedElements';

applyTheme();
document.documentElement.lang = 'en';
document.title = 'Component test';

// Setup for component tests in real Chromium: the app's global styles and theme.
import '../ui/styles.css';
import { applyTheme } from '../ui/theme';

applyTheme();
document.documentElement.lang = 'en';
document.title = 'Component test';

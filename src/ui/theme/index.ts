// The views of the theme feature that other features render.
export { ThemeSection } from './ThemeSection';
export { useTheme } from './useTheme';

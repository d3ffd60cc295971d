// The error state's look and default words, apart from LoadError so that the first chunk's pages
// (LazyLoadError) can draw its frame without carrying it.
export const LOAD_ERROR_TEXT = 'This could not be loaded.';
/** The error box's look (a caller adds its margin). */
export const LOAD_ERROR_CLASS = 'rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-800';

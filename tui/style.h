/*
 * style.h - the semantic colour slots panes draw with.
 *
 * Pane code says STYLE_ALERT, never a colour; themes (theme.h,
 * the themes/ files) map each slot to fg/bg/attributes.  STYLE_INFO(_)
 * generates the enum and the slot names used in theme files.
 */
#ifndef TD_STYLE_H
#define TD_STYLE_H

#define STYLE_INFO(_) \
	_(DEFAULT,        "default",        "Normal text") \
	_(TITLE_FOCUS,    "title-focus",    "Title of the focused pane") \
	_(TITLE_BLUR,     "title-blur",     "Title of the other panes") \
	_(HEADER,         "header",         "Table column headers") \
	_(SELECTED,       "selected",       "Cursor row in the focused pane") \
	_(SELECTED_BLUR,  "selected-blur",  "Cursor row in the other panes") \
	_(ALERT,          "alert",          "Alert kinds and counts") \
	_(NONFINITE,      "nonfinite",      "Rows and cells holding NaN or Inf") \
	_(LINK,           "link",           "Something Enter follows") \
	_(STATUS,         "status",         "Status bar") \
	_(STATUS_ERROR,   "status-error",   "Error message in the status line") \
	_(PROMPT,         "prompt",         "Prompt and search line") \
	_(SEARCH_MATCH,   "search-match",   "Search match") \
	_(LINE_NUMBER,    "line-number",    "Source line numbers") \
	_(HIGHLIGHT_LINE, "highlight-line", "The source line of the selected frame") \
	_(DIM,            "dim",            "Less important text") \
	_(ESCAPE,         "escape",         "Control bytes shown as escapes") \
	_(SEPARATOR,      "separator",      "Lines between panes") \
	_(OVERLAY,        "overlay",        "Help, tensor and output overlays") \
	_(OVERLAY_TITLE,  "overlay-title",  "Overlay title") \
	_(CELL,           "cell",           "Timeline cell") \
	_(HISTOGRAM,      "histogram",      "Histogram bars") \
	_(CORRUPT,        "corrupt",        "Corrupt rows and problem counts") \
	_(RANGE,          "range",          "Tensor values inside the tensor --range ranges")

enum style_slot {
#define TD_STYLE_ENUM(id, name, help) STYLE_##id,
	STYLE_INFO(TD_STYLE_ENUM)
#undef TD_STYLE_ENUM
	STYLE_COUNT
};

#endif

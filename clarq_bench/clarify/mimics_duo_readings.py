"""The two readings of MIMICS-Duo's Tables 7 and 11 where the paper's text allows more than one; a module of its own
so that the command line can offer them without loading the analysis."""

#: Table 11's relevant panes: one of the panes tied at the ideal's top (drawn in each draw), or every one of them.
RELEVANT = ("one", "tied")
#: Table 7's non-tied sets: queries whose top pane is unique by the method's label and by the engagement level, or by
#: the method's label alone.
UNTIED = ("label-and-engagement", "label")

"""Rules several rounds share, each in one home: :mod:`.trams` (VIII.3, VIII.5.3: the tram
stacks, buying, scrapping, rearranging), :mod:`.privates` (IV.2: returns of both kinds, the
private dividends, the sale to a company), :mod:`.money` (payments that fall on a director,
with loans).  They change a :class:`~tramways.g1840.position.Position` and import no round."""

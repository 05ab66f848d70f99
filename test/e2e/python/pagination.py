"""Lists users in small pages: get_all=True, iterator=True (len() is X-Total) and a single page."""
import warnings

from common import connect, emit

gl = connect()
all_ids = [u.id for u in gl.users.list(get_all=True, per_page=2)]
lazy = gl.users.list(iterator=True, per_page=2)
lazy_len = len(lazy)
lazy_ids = [u.id for u in lazy]
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    first_page = gl.users.list(per_page=2)
emit({
    "all_ids": all_ids,
    "iterator_len": lazy_len,
    "iterator_ids": lazy_ids,
    "iterator_total_pages": lazy.total_pages,
    "iterator_per_page": lazy.per_page,
    "first_page_ids": [u.id for u in first_page],
    "warnings": [str(w.message) for w in caught],
})

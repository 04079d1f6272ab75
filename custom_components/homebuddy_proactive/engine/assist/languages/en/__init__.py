"""English, as Assist hears and speaks it: one module per part (see ``languages/__init__.py``)."""

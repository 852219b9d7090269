"""fabricweb's network engine: spec -> topology -> cabling -> bom -> addressing -> roce -> traffic.

Plain Python (dataclasses and numpy), no Django. See spec.py for inputs and model.py for outputs.
"""

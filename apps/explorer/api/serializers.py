"""The explorer API's request and answer."""
from __future__ import annotations

from rest_framework import serializers

from apps.engine.spec import MAX_GPUS, MAX_OVERSUBSCRIPTION


class ExploreRequestSerializer(serializers.Serializer):
    gpus = serializers.IntegerField(min_value=1, max_value=MAX_GPUS)
    server = serializers.IntegerField(min_value=1, help_text="catalog id of the GPU server (its default NIC is used)")
    fabric = serializers.ChoiceField(choices=("ethernet", "infiniband"), default="ethernet")
    design = serializers.IntegerField(min_value=1, required=False, allow_null=True,
                                      help_text="explore with this design's layout, prices and spares")
    oversubscriptions = serializers.ListField(
        child=serializers.FloatField(min_value=1, max_value=MAX_OVERSUBSCRIPTION), required=False, max_length=8,
        min_length=1, help_text="o:1 ratios to try, default [1]")
    blocking = serializers.BooleanField(default=False, help_text="also list fewest-spines (blocking) wirings")
    max_oversubscription = serializers.FloatField(min_value=1, max_value=MAX_OVERSUBSCRIPTION, required=False,
                                                  allow_null=True)
    max_hops = serializers.IntegerField(min_value=1, max_value=9, required=False, allow_null=True)
    min_growth_gpus = serializers.IntegerField(min_value=1, max_value=MAX_GPUS, required=False, allow_null=True)
    budget = serializers.FloatField(min_value=0, max_value=1e12, required=False, allow_null=True,
                                    help_text="total cost at most, in the quote's currency")
    max_power_w = serializers.FloatField(min_value=0, max_value=1e9, required=False, allow_null=True,
                                         help_text="network power (typical) at most")


class ExploreResultSerializer(serializers.Serializer):
    candidates = serializers.ListField(child=serializers.JSONField(), help_text=(
        "cheapest first: label, total_cost, currency, as_stated, pareto, blocking, meets_bar, misses "
        "[{bar, limit, value, text}], leaf/spine/core {sku, name, breakout, vendor}, planes, tiers, "
        "oversubscription, switches, power_w, power_max_w, rack_units, max_gpus, max_hops, "
        "worst_pair_fraction, stated_fraction, inputs (POST them with gpus and server to create the design)"))
    bar = serializers.DictField(child=serializers.FloatField())
    bar_met = serializers.BooleanField(help_text="false: nothing meets the bar, the candidates are the nearest")
    explored = serializers.IntegerField()
    feasible = serializers.IntegerField()
    seconds = serializers.FloatField()
    skipped = serializers.ListField(child=serializers.CharField())
    currency = serializers.CharField()

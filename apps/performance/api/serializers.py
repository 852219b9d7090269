from __future__ import annotations

from rest_framework import serializers

from apps.performance.models import PerformanceRun


class PerformanceRequestSerializer(serializers.Serializer):
    workload = serializers.JSONField(help_text="WORKLOAD: a collective or a training job (see the engine's "
                                               "apps.engine.simulation.workload)")
    alternatives = serializers.BooleanField(default=False, help_text="also run it on the design's alternatives")


class PerformanceJobSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.CharField()
    stage = serializers.CharField()
    percent = serializers.IntegerField()
    error = serializers.CharField()


class PerformanceRunSerializer(serializers.ModelSerializer):
    job = PerformanceJobSerializer(read_only=True)

    class Meta:
        model = PerformanceRun
        fields = ["id", "version", "job", "workload", "with_alternatives", "result", "alternatives", "seconds",
                  "created_at"]
        read_only_fields = fields


class PerformanceRunListSerializer(serializers.ModelSerializer):
    job = PerformanceJobSerializer(read_only=True)

    class Meta:
        model = PerformanceRun
        fields = ["id", "job", "workload", "with_alternatives", "seconds", "created_at"]
        read_only_fields = fields

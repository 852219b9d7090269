FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
# Pango and HarfBuzz for WeasyPrint (the design document as PDF), Cairo for its Word file's pictures,
# Noto CJK for Chinese documents; libyang2-dev and gcc build PyPI's libyang (configs checked against SONiC's YANG).
RUN apt-get update && apt-get install -y --no-install-recommends gettext libpq5 libpango-1.0-0 libpangoft2-1.0-0 \
        libharfbuzz-subset0 libcairo2 fonts-noto-cjk libyang2-dev gcc && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt
COPY . .
# A throwaway key for these build steps only; the running container needs DJANGO_SECRET_KEY.
RUN DJANGO_SECRET_KEY=build-only python manage.py compilemessages --ignore=.venv \
    && DJANGO_SECRET_KEY=build-only python manage.py collectstatic --noinput
EXPOSE 8000
CMD ["gunicorn", "fabricweb.wsgi:application", "--bind", "0.0.0.0:8000", "--workers", "3", "--timeout", "300"]

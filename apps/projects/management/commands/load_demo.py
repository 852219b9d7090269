"""Demo data: staff user demo / demo-password, a customer, a project and a member (viewer).

Those passwords are published (README), so the command runs only in an explicit demo mode:
`--demo` or FABRICWEB_DEMO=true (scripts/setup.sh sets it for the local demo). Anywhere else it
refuses and creates nothing; create real users with createsuperuser or the admin.

Idempotent: running it again changes nothing that exists; passwords are set only when a
user is created, so a changed password survives.
"""
import environ
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from apps.projects.models import Customer, Project, ProjectMembership
from apps.projects.services import customer_create, project_create, project_member_add

DEMO_USERNAME = "demo"
DEMO_PASSWORD = "demo-password"
VIEWER_USERNAME = "viewer"
VIEWER_PASSWORD = "viewer-password"
CUSTOMER_NAME = "Example AI Lab"
PROJECT_NAME = "5,000 GPU RoCE cluster"


class Command(BaseCommand):
    help = ("Create the demo users (demo, viewer; published passwords), customer and project if they do not "
            "exist. Only with --demo or FABRICWEB_DEMO=true.")

    def add_arguments(self, parser):
        parser.add_argument("--demo", action="store_true",
                            help="Confirm this is a private demo machine (or set FABRICWEB_DEMO=true).")

    def _user(self, username: str, password: str, *, is_staff: bool):
        User = get_user_model()
        user, created = User.objects.get_or_create(
            username=username, defaults={"is_staff": is_staff, "email": f"{username}@example.com"}
        )
        if created:
            user.set_password(password)
            user.save(update_fields=["password"])
            role = "staff user" if is_staff else "user"
            self.stdout.write(f"Created {role} {username} (password {password}).")
        else:
            self.stdout.write(f"User {username} already exists (password unchanged).")
        if is_staff and not user.is_staff:
            user.is_staff = True
            user.save(update_fields=["is_staff"])
            self.stdout.write(f"Made {username} a staff user.")
        return user

    def handle(self, *args, **options):
        if not (options["demo"] or environ.Env().bool("FABRICWEB_DEMO", default=False)):
            raise CommandError(
                "load_demo creates a staff user with a published password (demo / demo-password). "
                "Run it only on a private demo machine, with --demo or FABRICWEB_DEMO=true."
            )
        self._load()

    @transaction.atomic
    def _load(self):
        demo = self._user(DEMO_USERNAME, DEMO_PASSWORD, is_staff=True)
        viewer = self._user(VIEWER_USERNAME, VIEWER_PASSWORD, is_staff=False)

        customer = Customer.objects.filter(name__iexact=CUSTOMER_NAME).first()
        if customer is None:
            customer = customer_create(
                name=CUSTOMER_NAME,
                created_by=demo,
                country="",
                description="Demo customer: an AI lab planning a large RoCE training cluster.",
            )
            self.stdout.write(f"Created customer “{customer.name}”.")
        else:
            self.stdout.write(f"Customer “{customer.name}” already exists.")

        project = Project.objects.filter(customer=customer, name__iexact=PROJECT_NAME).first()
        if project is None:
            project = project_create(
                customer=customer,
                name=PROJECT_NAME,
                owner=demo,
                description="Demo project: 5,000 GPUs on a rail-optimized RoCE backend fabric.",
            )
            self.stdout.write(f"Created project “{project.name}” (id {project.pk}) owned by {demo.username}.")
        else:
            self.stdout.write(f"Project “{project.name}” (id {project.pk}) already exists.")

        if ProjectMembership.objects.filter(project=project, user=viewer).exists():
            self.stdout.write(f"{viewer.username} is already a member of “{project.name}”.")
        else:
            # Added as the project's owner, so the demo works even if demo lost its staff flag.
            project_member_add(project=project, user=viewer, added_by=project.owner)
            self.stdout.write(f"Added {viewer.username} as a member of “{project.name}”.")

"""The Textual app: screens and widgets. It asks the rules for events and hands them to the store."""
